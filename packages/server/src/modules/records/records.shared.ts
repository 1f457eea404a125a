import {
  computeAccessStatus,
  type FieldError,
  type GrantPermission,
  type RecordData,
  type SecretLinkPermission,
  type Tombstone,
} from '@cairn/shared';
import type { Config } from '../../config.js';
import { AppError, permissionDenied, pidDoesNotExist } from '../../errors.js';
import { nowIso } from '../../database/database.js';
import { readJson } from '../../database/schema.js';
import { inTransaction } from '../../database/unit-of-work.js';
import type { User } from '../users/users.service.js';
import { isRecordId } from './record-id.js';
import type { RecordsRepository } from './records.repository.js';
import type { DraftRow, ParentData, ParentReview, ParentRow, RecordRow } from './records.rows.js';

const DRAFT_LIFETIME_DAYS = 365;

/** The grant each way of working on a draft needs: reading it is previewing it. */
const DRAFT_NEEDS = { read: 'preview', review: 'edit', manage: 'manage' } as const;

export interface DraftResult {
  row: DraftRow;
  parent: ParentRow;
  isPublished: boolean;
  isLatestDraft: boolean;
  errors: FieldError[];
}

export interface LoadedDraft {
  row: DraftRow;
  parent: ParentRow;
  isPublished: boolean;
  maxDraftVersion: number;
  /** The owner's own file quota (null parts: the configured one), when read with the draft. */
  ownerQuota?: { maxFiles: number | null; maxBytes: number | null };
}

export interface RecordResult {
  row: RecordRow;
  parent: ParentRow;
}

/**
 * Whether a user curates a community (communities module): the curators of the community a
 * draft is submitted to may read and edit it while the review is open, as in InvenioRDM.
 */
export interface CommunityCurators {
  isCurator(communityId: string, userId: number): Promise<boolean>;
}

export function today(): string {
  return new Date().toISOString().slice(0, 10);
}

/** The options of the shared record validation, with this site's locales and today's date. */
export function validationOptions(config: Config, extra: { publisherRequired?: boolean } = {}) {
  return { locales: config.locales, today: today(), ...extra };
}

/** The owner of a record's parent manages it; administrators own everything. */
export function isOwner(user: User | undefined, parent: ParentRow): boolean {
  if (!user) return false;
  if (user.isAdmin) return true;
  return parent.ownerId === user.id;
}

/**
 * What a secret link's token in the request (`?token=`, or the page cookie it left) grants: its
 * permission on the versions of one parent. Resolved once per request, so a link deleted or
 * expired a moment ago grants nothing.
 */
export interface LinkGrant {
  id: string;
  parentId: string;
  permission: SecretLinkPermission;
}

/**
 * The levels of links and grants alike: each permission includes the ones before it (an `edit`
 * link also previews the draft and views the record), as InvenioRDM's do; only a grant to a
 * person reaches `manage`.
 */
const LEVELS: Record<GrantPermission, number> = { view: 1, preview: 2, edit: 3, manage: 4 };

/** Whether `held` includes `need` (see LEVELS). */
export function permissionIncludes(held: GrantPermission, need: GrantPermission): boolean {
  return LEVELS[held] >= LEVELS[need];
}

/** Whether `link` lets its holder `need` on `parent` (see LEVELS). */
export function linkAllows(
  link: LinkGrant | undefined,
  parent: ParentRow,
  need: SecretLinkPermission,
): boolean {
  return (
    link !== undefined && link.parentId === parent.id && permissionIncludes(link.permission, need)
  );
}

/**
 * The grants of record parents to people (access module), the second source of permission beside
 * a request's link: looked up per parent and person, only when neither ownership nor a link has
 * already answered.
 */
export interface GrantLookup {
  /** The permission `userId` holds on `parentId`'s versions by a grant; undefined: none. */
  grantOf(parentId: string, userId: number): Promise<GrantPermission | undefined>;
}

/** The review a first-version draft carries on its parent, its request status copied in. */
export function reviewOf(parent: ParentRow): ParentReview | undefined {
  return readJson<ParentData>(parent.data).review ?? undefined;
}

export function titleOf(data: RecordData): string {
  const t = (data.metadata as { title?: unknown }).title;
  return typeof t === 'string' ? t : '';
}

/** What full-text search sees of a record: title, people, description, subjects, identifiers. */
export function searchText(data: RecordData, id: string): string {
  const m = data.metadata as Record<string, unknown>;
  const parts: string[] = [id];
  const push = (v: unknown) => {
    if (typeof v === 'string' && v) parts.push(v);
  };
  push(m.title);
  for (const c of [
    ...((m.creators as unknown[]) ?? []),
    ...((m.contributors as unknown[]) ?? []),
  ]) {
    const p = (c as { person_or_org?: { name?: string } }).person_or_org;
    push(p?.name);
  }
  if (typeof m.description === 'string') push(m.description.replace(/<[^>]*>/g, ' '));
  for (const s of (m.subjects as Array<{ subject?: string; id?: string }>) ?? [])
    push(s.subject ?? s.id);
  for (const t of (m.additional_titles as Array<{ title?: string }>) ?? []) push(t.title);
  push(m.publisher);
  push(m.version);
  return parts.join(' ').slice(0, 200_000);
}

/**
 * The columns of a published record's row that are copied out of its data, for searching,
 * sorting and the sweeps: what a publish writes, and what a bulk load of records writes alike.
 */
export function publishedColumns(
  data: RecordData,
  id: string,
): Pick<
  RecordRow,
  | 'title'
  | 'searchText'
  | 'publicationDate'
  | 'resourceType'
  | 'accessRecord'
  | 'embargoUntil'
  | 'accessStatus'
> {
  const m = data.metadata as { publication_date?: string; resource_type?: { id: string } };
  const embargo = data.access.embargo;
  return {
    title: titleOf(data),
    searchText: searchText(data, id),
    publicationDate: m.publication_date ?? '',
    resourceType: m.resource_type?.id ?? '',
    accessRecord: data.access.record,
    embargoUntil: embargo?.active && embargo.until ? embargo.until : null,
    accessStatus: computeAccessStatus(data.access, data.files.enabled),
  };
}

/** Errors of one field merged into one entry, each message once. */
export function mergeErrors(errors: FieldError[]): FieldError[] {
  const byField = new Map<string, FieldError>();
  for (const e of errors) {
    const existing = byField.get(e.field);
    if (existing)
      existing.messages.push(...e.messages.filter((m) => !existing.messages.includes(m)));
    else byField.set(e.field, { ...e, messages: [...e.messages] });
  }
  return [...byField.values()];
}

/**
 * A draft's row: a new draft (a first version or the next one) from its data, or the edit draft
 * of a published record, which starts as that record is (its data, revision, dates and files).
 */
export function draftRow(
  draft: { id: string; parentId: string; versionIndex: number; updatedBy: number },
  source: { data: RecordData } | { edits: RecordRow; filesSummary: string },
  now = nowIso(),
): DraftRow {
  const edits = 'edits' in source ? source.edits : undefined;
  const data = 'data' in source ? source.data : undefined;
  return {
    ...draft,
    data: edits
      ? typeof edits.data === 'string'
        ? edits.data
        : JSON.stringify(edits.data)
      : JSON.stringify(data),
    revisionId: edits?.revisionId ?? 1,
    createdAt: edits?.createdAt ?? now,
    updatedAt: now,
    title: edits ? edits.title : titleOf(data!),
    searchText: edits ? edits.searchText : searchText(data!, draft.id),
    expiresAt: new Date(Date.now() + DRAFT_LIFETIME_DAYS * 86_400_000).toISOString(),
    recordCreatedAt: edits?.createdAt ?? null,
    filesSummary: 'filesSummary' in source ? source.filesSummary : null,
    updatedBy: draft.updatedBy,
    // Only an unpublished draft holds its parent's one slot for a pending version.
    unpublishedParentId: edits ? null : draft.parentId,
  };
}

/** The revision a write was refused against, read as it now is (412's message names it). */
export async function revisionMismatch(repo: RecordsRepository, row: DraftRow): Promise<AppError> {
  const current = await repo.getDraft(row.id);
  return new AppError(
    'REVISION_MISMATCH',
    `Revision id provided(${row.revisionId}) doesn't match record's one(${current?.revisionId ?? '?'})`,
  );
}

/**
 * What the records services share: the parent's lock that every change of a record takes,
 * drafts and records loaded as the caller may see them, and the parent's own data (its review
 * link and communities), written under that lock.
 */
/**
 * The answer for a deleted record: 410 with its tombstone, or, when the administrator chose not
 * to show one, 404, as if it had never been published.
 */
export function deletedError(row: RecordRow): AppError {
  const tombstone = readJson<Tombstone | null>(row.tombstone) ?? {
    removal_date: row.deletedAt,
    is_visible: true,
  };
  if (tombstone.is_visible === false) return pidDoesNotExist();
  return new AppError('RECORD_DELETED', undefined, undefined, { tombstone });
}

export class RecordStore {
  constructor(
    readonly repo: RecordsRepository,
    private readonly curators: CommunityCurators,
    private readonly grants: GrantLookup,
  ) {}

  /** The permission `user` holds on the parent by a grant, if any. */
  async grantOf(user: User | undefined, parent: ParentRow): Promise<GrantPermission | undefined> {
    return user ? this.grants.grantOf(parent.id, user.id) : undefined;
  }

  /** Whether `user` holds a grant on the parent that includes `need`. */
  async granted(
    user: User | undefined,
    parent: ParentRow,
    need: GrantPermission,
  ): Promise<boolean> {
    const held = await this.grantOf(user, parent);
    return held !== undefined && permissionIncludes(held, need);
  }

  /**
   * Whether the request may `need` on the parent by its link or by the caller's grant, whichever
   * allows more: the link is checked first, as it costs no query.
   */
  async allows(
    user: User | undefined,
    link: LinkGrant | undefined,
    parent: ParentRow,
    need: SecretLinkPermission,
  ): Promise<boolean> {
    return linkAllows(link, parent, need) || this.granted(user, parent, need);
  }

  /**
   * Whether `user` manages the parent: its owner (and administrators), and whoever holds a
   * `manage` grant, who shares it further, opens versions and publishes as a co-owner does.
   */
  async canManage(user: User | undefined, parent: ParentRow): Promise<boolean> {
    return isOwner(user, parent) || this.granted(user, parent, 'manage');
  }

  /** PERMISSION_DENIED unless `user` manages the parent (see `canManage`). */
  async assertCanManage(user: User | undefined, parent: ParentRow): Promise<User> {
    if (!user || !(await this.canManage(user, parent))) throw permissionDenied();
    return user;
  }

  /**
   * The parent of a record or draft id that `user` manages, for the sharing of it (links and
   * grants): 404 for an unknown id, the record's 410 when it was deleted and has no draft, 403
   * to everyone else.
   */
  async managedParent(user: User | undefined, id: string): Promise<ParentRow> {
    if (!isRecordId(id)) throw pidDoesNotExist();
    const row = (await this.repo.getDraft(id)) ?? (await this.repo.getRecord(id));
    if (!row) throw pidDoesNotExist();
    if ('deletedAt' in row && row.deletedAt) throw deletedError(row);
    const parent = await this.parentOf(row.parentId);
    await this.assertCanManage(user, parent);
    return parent;
  }

  /** `fn` under the parent's lock, on the parent `user` manages (see `managedParent`). */
  async changingManaged<T>(
    user: User | undefined,
    id: string,
    fn: (parent: ParentRow, user: User) => Promise<T>,
  ): Promise<T> {
    const { id: parentId } = await this.managedParent(user, id);
    // Checked again under the lock, on the parent and grants as they now are.
    return this.locked(parentId, async (parent) =>
      fn(parent, await this.assertCanManage(user, parent)),
    );
  }

  async parentOf(parentId: string): Promise<ParentRow> {
    const parent = await this.repo.getParent(parentId);
    if (!parent) throw new Error(`parent ${parentId} missing`);
    return parent;
  }

  /**
   * Runs `fn` in one transaction that first locks the parent (ARCHITECTURE §7): every action that
   * changes a record's drafts, versions, files, PIDs or review goes through here, and decides
   * only on what it reads inside, so parallel calls act one after the other. Joins the
   * transaction of an enclosing action (a request's accept publishing its draft). 404 when the
   * parent is gone.
   */
  async locked<T>(parentId: string, fn: (parent: ParentRow) => Promise<T>): Promise<T> {
    return inTransaction(this.repo.executor, async () => {
      const parent = await this.repo.lockParent(parentId);
      if (!parent) throw pidDoesNotExist();
      return fn(parent);
    });
  }

  /**
   * `fn` under the lock of the parent of `recordId` (a draft or a published record), for the
   * actions of requests about it; without a lock when the record is gone, so that the request's
   * own checks answer.
   */
  async lockedTopic<T>(recordId: string | null, fn: () => Promise<T>): Promise<T> {
    return inTransaction(this.repo.executor, async () => {
      const row =
        recordId && isRecordId(recordId)
          ? ((await this.repo.getDraft(recordId)) ?? (await this.repo.getRecord(recordId)))
          : undefined;
      if (row) await this.repo.lockParent(row.parentId);
      return fn();
    });
  }

  /**
   * `fn` with the draft as `loadDraft` gives it, read under its parent's lock and then its own
   * (404 when there is no draft, also when it went while this waited for the lock).
   */
  async lockedDraft<T>(
    user: User | undefined,
    id: string,
    need: 'review' | 'manage',
    fn: (loaded: LoadedDraft) => Promise<T>,
    link?: LinkGrant,
  ): Promise<T> {
    if (!isRecordId(id)) throw pidDoesNotExist();
    return inTransaction(this.repo.executor, async () => {
      if (!(await this.repo.lockParentOfDraft(id))) throw pidDoesNotExist();
      return fn(await this.loadDraft(user, id, need, true, link));
    });
  }

  /**
   * A draft the caller may work on: its owner and a `manage` grantee; for `review` (reading and
   * editing) also the curators of the community it is submitted to, while the review is open, and
   * a signed-in holder of an `edit` link or grant; for `read` also anyone holding a `preview` or
   * `edit` link or grant.
   */
  async loadDraft(
    user: User | undefined,
    id: string,
    need: 'read' | 'review' | 'manage' = 'review',
    lock = false,
    link?: LinkGrant,
  ): Promise<LoadedDraft> {
    const found = isRecordId(id) ? await this.repo.getDraftContext(id, lock) : undefined;
    if (!found) throw pidDoesNotExist();
    // Editing through a link needs a person to answer for the changes, as the issue of #19 asks.
    const byLink =
      (need === 'read' && linkAllows(link, found.parent, 'preview')) ||
      (need === 'review' && user !== undefined && linkAllows(link, found.parent, 'edit'));
    if (byLink) return found;
    if (!user) throw permissionDenied();
    if (isOwner(user, found.parent)) return found;
    if (await this.granted(user, found.parent, DRAFT_NEEDS[need])) return found;
    if (need !== 'manage' && (await this.mayReview(user, found))) return found;
    throw permissionDenied();
  }

  /** Curators of the receiving community work on the draft while the review is open. */
  private async mayReview(user: User, { parent }: LoadedDraft): Promise<boolean> {
    const review = reviewOf(parent);
    if (review?.status !== 'submitted') return false;
    return this.curators.isCurator(review.receiver.community, user.id);
  }

  /**
   * A live published record by id, or the answer for why there is none: PID_DOES_NOT_EXIST,
   * PID_NOT_REGISTERED (a draft never published), RECORD_DELETED. `found` is the row a caller
   * already read, so a page view reads the record once.
   */
  async loadRecordRow(id: string, found?: RecordRow): Promise<RecordRow> {
    const row = found ?? (isRecordId(id) ? await this.repo.getRecord(id) : undefined);
    if (!row) {
      if (isRecordId(id) && (await this.repo.getDraft(id)))
        throw new AppError('PID_NOT_REGISTERED');
      throw pidDoesNotExist();
    }
    if (row.deletedAt) throw deletedError(row);
    return row;
  }

  /** A draft with what the editor shows of it; `known` spares the queries when it was loaded. */
  async draftResult(
    row: DraftRow,
    parent: ParentRow,
    errors: FieldError[] = [],
    known?: Pick<LoadedDraft, 'isPublished' | 'maxDraftVersion'>,
  ): Promise<DraftResult> {
    if (known) {
      return {
        row,
        parent,
        isPublished: known.isPublished,
        isLatestDraft: known.maxDraftVersion <= row.versionIndex,
        errors,
      };
    }
    const [record, drafts] = await Promise.all([
      this.repo.getRecord(row.id),
      this.repo.draftsOfParent(row.parentId),
    ]);
    return {
      row,
      parent,
      isPublished: record !== undefined,
      isLatestDraft: (drafts[0]?.versionIndex ?? row.versionIndex) <= row.versionIndex,
      errors,
    };
  }

  /** Writes the parent's review link (or removes it); every draft of the parent shows it. */
  async setReview(parentId: string, review: ParentReview | undefined): Promise<void> {
    await this.locked(parentId, async (parent) => {
      const data = readJson<ParentData>(parent.data);
      if (review) data.review = review;
      else delete data.review;
      await this.repo.updateParent(parentId, JSON.stringify(data), nowIso());
    });
  }

  /**
   * Adds and removes communities of a parent and sets its default, in `parents.data` and the
   * `record_communities` index together. The default follows InvenioRDM: the first community
   * becomes it, removing it unsets it, `default: null` unsets it. Returns the written parent.
   */
  async changeCommunities(
    parentId: string,
    change: { add?: string; remove?: string[]; default?: string | null },
  ): Promise<ParentRow> {
    return this.locked(parentId, async (parent) => {
      const data = readJson<ParentData>(parent.data);
      const removed = new Set(change.remove ?? []);
      const current = (data.communities.ids as string[] | undefined) ?? [];
      const ids = [...new Set([...current, ...(change.add ? [change.add] : [])])].filter(
        (id) => !removed.has(id),
      );
      let defaultId = data.communities.default as string | null | undefined;
      if (change.default !== undefined) defaultId = change.default;
      if (!defaultId && change.add && current.length === 0) defaultId = change.add;
      if (defaultId && !ids.includes(defaultId)) defaultId = undefined;
      data.communities =
        ids.length === 0 ? {} : { ids, ...(defaultId ? { default: defaultId } : {}) };
      const now = nowIso();
      await this.repo.setCommunities(parentId, ids, now);
      await this.repo.updateParent(parentId, JSON.stringify(data), now);
      return (await this.repo.getParent(parentId))!;
    });
  }
}
