import {
  collectVocabularyRefs,
  computeAccessStatus,
  doiTransitionAfter,
  keepsDoiTransition,
  loadRecord,
  normalizeDoi,
  validateForPublish,
  type DoiTransition,
  type FieldError,
  type RecordData,
} from '@cairn/shared';
import type { Config } from '../../config.js';
import { AppError, permissionDenied, pidDoesNotExist } from '../../errors.js';
import { nowIso } from '../../database/database.js';
import { readJson } from '../../database/schema.js';
import { afterCommit, inTransaction } from '../../database/unit-of-work.js';
import { sanitizeRichText } from '../../lib/html.js';
import { checkRevision } from '../../lib/revision.js';
import type { User } from '../users/users.service.js';
import type { VocabulariesService } from '../vocabularies/vocabularies.service.js';
import { isRecordId, newRecordId } from './record-id.js';
import type {
  DraftRow,
  ParentData,
  ParentReview,
  ParentRow,
  RecordRow,
  RecordsRepository,
} from './records.repository.js';
import type { FilesLifecycle } from '../files/files.lifecycle.js';
import { EMPTY_SUMMARY, readSummary, type FilesSummary } from '../files/files.summary.js';

const DRAFT_LIFETIME_DAYS = 365;

const GRACE_MESSAGE =
  'Record visibility can not be changed to restricted anymore. Please contact support if you still need to make these changes.';

/** Notified after a managed DOI's record is published, so DataCite registration starts at once. */
export interface DoiRegistrationQueue {
  kick(): void;
}

/**
 * What drafts learn from community reviews without knowing requests: whether a user curates the
 * community a draft is submitted to (they may then read and edit it, as in InvenioRDM).
 */
export interface ReviewGate {
  mayReview(user: User, parent: ParentRow): Promise<boolean>;
  /**
   * Checks the review a new draft asks for (`parent.review` of `POST /api/records`) as
   * `PUT {draft}/review` would, before anything is written: a refused review creates no draft.
   */
  prepareReview(user: User, review: unknown): Promise<PreparedReview>;
}

/** A review checked for a draft about to be created. */
export interface PreparedReview {
  /** The community takes restricted records only: the draft is created restricted. */
  restricted: boolean;
  /** Opens the review (status `created`) on the new draft. */
  attach(draft: LoadedDraft): Promise<void>;
}

/** The review a first-version draft carries on its parent, its request status copied in. */
export function reviewOf(parent: ParentRow): ParentReview | undefined {
  return readJson<ParentData>(parent.data).review ?? undefined;
}

export interface Viewer {
  user?: User;
}

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

function today(): string {
  return new Date().toISOString().slice(0, 10);
}

function sanitizeDescriptions(data: RecordData): void {
  const m = data.metadata as Record<string, unknown>;
  const clean = sanitizeRichText;
  if (typeof m.description === 'string') m.description = clean(m.description);
  if (Array.isArray(m.additional_descriptions)) {
    for (const d of m.additional_descriptions as Array<{ description?: unknown }>) {
      if (typeof d.description === 'string') d.description = clean(d.description);
    }
  }
}

/** What full-text search sees of a record: title, people, description, subjects, identifiers. */
function searchText(data: RecordData, id: string): string {
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

/** A restricted community takes restricted records only: record and files become restricted. */
function restrictedAccess(access: RecordData['access']): RecordData['access'] {
  return { ...access, record: 'restricted', files: 'restricted' };
}

/** `parent.review` of a create body, when one is asked for. */
function requestedReview(body: unknown): unknown {
  const parent = (body as { parent?: unknown }).parent;
  if (typeof parent !== 'object' || parent === null) return undefined;
  return (parent as { review?: unknown }).review ?? undefined;
}

function titleOf(data: RecordData): string {
  const t = (data.metadata as { title?: unknown }).title;
  return typeof t === 'string' ? t : '';
}

function mergeErrors(errors: FieldError[]): FieldError[] {
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
 * Drafts and published records: the rules of InvenioRDM's draft lifecycle (create, save with
 * partial validation, publish strictly, edit, new version, discard) and its PID handling.
 * Throws AppError with the contract's codes; never sees HTTP.
 */
export class RecordsService {
  constructor(
    private readonly repo: RecordsRepository,
    private readonly vocabularies: VocabulariesService,
    private readonly config: Config,
    private readonly files: FilesLifecycle,
    private readonly doiQueue: DoiRegistrationQueue = { kick: () => undefined },
  ) {}

  /** Set once the communities and requests modules are wired (services.ts). */
  reviewGate?: ReviewGate;

  private get managedProvider(): string {
    return this.config.doi.datacite ? 'datacite' : 'local';
  }

  private validationOptions(extra: { publisherRequired?: boolean } = {}) {
    return { locales: this.config.locales, today: today(), ...extra };
  }

  private isOwner(user: User | undefined, parent: ParentRow): boolean {
    if (!user) return false;
    if (user.isAdmin) return true;
    return parent.ownerId === user.id;
  }

  private assertCanManage(user: User | undefined, parent: ParentRow): asserts user is User {
    if (!this.isOwner(user, parent)) throw permissionDenied();
  }

  private async parentOf(parentId: string): Promise<ParentRow> {
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
  ): Promise<T> {
    if (!isRecordId(id)) throw pidDoesNotExist();
    return inTransaction(this.repo.executor, async () => {
      if (!(await this.repo.lockParentOfDraft(id))) throw pidDoesNotExist();
      return fn(await this.loadDraft(user, id, need, true));
    });
  }

  private async draftResult(
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

  /**
   * Server-side checks a shared schema cannot make: vocabulary ids exist (400 for the whole save),
   * descriptions are sanitised, PIDs are unique and not under our own prefix, the grace period.
   */
  private async checkAgainstServer(
    data: RecordData,
    draftId: string,
    previous: RecordData | undefined,
    gracePeriodStart: string | undefined,
    files: FilesSummary,
  ): Promise<FieldError[]> {
    const errors: FieldError[] = [];
    await this.vocabularies.assertExist(collectVocabularyRefs(data));
    sanitizeDescriptions(data);

    const doi = data.pids.doi;
    if (doi) {
      if (doi.provider === 'external') {
        const normalized = normalizeDoi(doi.identifier);
        if (normalized) {
          doi.identifier = normalized;
          if (normalized.toLowerCase().startsWith(`${this.config.doi.prefix.toLowerCase()}/`)) {
            errors.push({
              field: 'pids.doi',
              messages: [
                `The prefix '${this.config.doi.prefix}' is managed by ${this.config.siteName}. Please supply an external DOI or select 'No' to have a DOI generated for you.`,
              ],
            });
            delete data.pids.doi;
          } else {
            const existing = await this.repo.findPid('doi', normalized);
            if (existing && existing.recordId !== draftId) {
              errors.push({ field: 'pids.doi', messages: [`doi:${normalized} already exists.`] });
              delete data.pids.doi;
            }
          }
        }
      } else {
        // A managed DOI is only ever set by the reserve action: a client may send back the one it
        // was given, but cannot invent or move one.
        const reserved = previous?.pids.doi;
        if (
          !reserved ||
          reserved.provider === 'external' ||
          reserved.identifier.toLowerCase() !== doi.identifier.toLowerCase()
        ) {
          errors.push({
            field: 'pids.doi',
            messages: ['A managed DOI can only be obtained with the reserve action.'],
          });
          if (reserved && reserved.provider !== 'external') data.pids.doi = reserved;
          else delete data.pids.doi;
        } else {
          data.pids.doi = reserved;
        }
      }
    } else if (previous?.pids.doi && previous.pids.doi.provider !== 'external') {
      // Dropping a reserved managed DOI from the body does not discard it: that is the discard action's job.
      data.pids.doi = previous.pids.doi;
    }
    if (previous?.pids.oai) data.pids.oai = previous.pids.oai;

    if (
      previous &&
      gracePeriodStart &&
      !this.config.access.allowRestrictionAfterGrace &&
      previous.access.record === 'public' &&
      data.access.record === 'restricted'
    ) {
      const limit =
        new Date(gracePeriodStart).getTime() + this.config.access.restrictionGraceDays * 86_400_000;
      if (limit <= Date.now()) {
        errors.push({ field: 'access.record', messages: [GRACE_MESSAGE] });
        data.access = { ...previous.access };
      }
    }

    if (data.files.default_preview && !files.entries[data.files.default_preview]) {
      errors.push({
        field: 'files.default_preview',
        messages: [`Default preview file not found: ${data.files.default_preview}.`],
      });
      delete data.files.default_preview;
    }
    if (!data.files.enabled && files.count > 0) {
      errors.push({
        field: 'files.enabled',
        messages: ['You must first delete all files to set the record to be metadata-only.'],
      });
      data.files.enabled = true;
    }
    return errors;
  }

  private bodyObject(body: unknown): unknown {
    if (body === undefined || body === null) return {};
    if (typeof body !== 'object' || Array.isArray(body)) {
      throw new AppError('VALIDATION_FAILED', undefined, [
        { field: '_schema', messages: ['Invalid input type.'] },
      ]);
    }
    return body;
  }

  /**
   * POST /api/records: a new draft owned by the caller; invalid parts are dropped and reported.
   * `parent.review` opens a community review with it, as InvenioRDM allows.
   */
  async createDraft(user: User | undefined, body: unknown): Promise<DraftResult> {
    if (!user) throw permissionDenied();
    const source = this.bodyObject(body);
    const asked = requestedReview(source);
    const review =
      asked === undefined ? undefined : await this.reviewGate?.prepareReview(user, asked);
    const { data, errors } = loadRecord(source, this.validationOptions());
    if (review?.restricted) data.access = restrictedAccess(data.access);
    const id = newRecordId();
    errors.push(...(await this.checkAgainstServer(data, id, undefined, undefined, EMPTY_SUMMARY)));
    const now = nowIso();
    const parentData: ParentData = {
      access: {
        owned_by: { user: String(user.id) },
        settings: {
          allow_user_requests: false,
          allow_guest_requests: false,
          accept_conditions_text: null,
          secret_link_expiration: 0,
        },
        grants: [],
        links: [],
      },
      communities: {},
      pids: {},
    };
    const parent: ParentRow = {
      id: newRecordId(),
      ownerId: user.id,
      data: JSON.stringify(parentData),
      createdAt: now,
      updatedAt: now,
    };
    const row: DraftRow = {
      id,
      parentId: parent.id,
      versionIndex: 1,
      data: JSON.stringify(data),
      revisionId: 1,
      createdAt: now,
      updatedAt: now,
      title: titleOf(data),
      searchText: searchText(data, id),
      expiresAt: new Date(Date.now() + DRAFT_LIFETIME_DAYS * 86_400_000).toISOString(),
      recordCreatedAt: null,
      filesSummary: null,
      unpublishedParentId: parent.id,
    };
    await this.repo.transaction(async (trx) => {
      await trx.insertParent(parent);
      await trx.insertDraft(row);
    });
    if (review) await review.attach({ row, parent, isPublished: false, maxDraftVersion: 1 });
    return {
      row,
      parent: review ? await this.parentOf(parent.id) : parent,
      isPublished: false,
      isLatestDraft: true,
      errors: mergeErrors(errors),
    };
  }

  /**
   * A draft the caller may work on: its owner; for `review` also the curators of the community
   * it is submitted to, while the review is open.
   */
  private async loadDraft(
    user: User | undefined,
    id: string,
    need: 'review' | 'manage' = 'review',
    lock = false,
  ): Promise<LoadedDraft> {
    const found = isRecordId(id) ? await this.repo.getDraftContext(id, lock) : undefined;
    if (!found) throw pidDoesNotExist();
    if (!user) throw permissionDenied();
    if (
      !this.isOwner(user, found.parent) &&
      !(need === 'review' && (await this.reviewGate?.mayReview(user, found.parent)))
    )
      throw permissionDenied();
    return found;
  }

  /** A draft its owner manages (reviews, community choice); curators of the review do not. */
  async draftForManage(user: User | undefined, id: string): Promise<LoadedDraft> {
    return this.loadDraft(user, id, 'manage');
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

  /** A restricted community takes restricted records only: record and files become restricted. */
  async restrictDraft(loaded: LoadedDraft): Promise<void> {
    const data = readJson<RecordData>(loaded.row.data);
    if (data.access.record === 'restricted' && data.access.files === 'restricted') return;
    data.access = restrictedAccess(data.access);
    const set = {
      data: JSON.stringify(data),
      updatedAt: nowIso(),
      title: loaded.row.title,
      searchText: loaded.row.searchText,
    };
    if (!(await this.repo.updateDraft(loaded.row.id, loaded.row.revisionId, set)))
      throw new AppError('CONFLICT');
  }

  /**
   * What `user` may do with a draft of `parent` in the editor (the page's `permissions`): its
   * owner (or an admin) manages it, deletes it and makes new versions; a curator reviewing it
   * may read and edit but not change its community or versions.
   */
  draftPermissions(
    user: User | undefined,
    parent: ParentRow,
  ): { can_manage: boolean; can_new_version: boolean; can_delete_draft: boolean } {
    const owner = this.isOwner(user, parent);
    return { can_manage: owner, can_new_version: owner, can_delete_draft: owner };
  }

  /**
   * The concept DOI (`parent.pids.doi`, `{prefix}/{parent id}`), which stands for every version:
   * minted when the parent's first version with a managed DOI is published, and queued for
   * registration again at each later one, so that DataCite's record of it points to the latest
   * version and lists every version. Returns whether `parentData` changed.
   */
  private async keepConceptDoi(
    trx: RecordsRepository,
    parentId: string,
    parentData: ParentData,
  ): Promise<boolean> {
    const status = this.config.doi.datacite ? 'publishing' : 'registered';
    const existing = (parentData.pids.doi as { identifier?: string } | undefined)?.identifier;
    if (existing) {
      await trx.updatePid('doi', existing, { status, nextAttemptAt: null });
      return false;
    }
    const identifier = `${this.config.doi.prefix}/${parentId}`;
    await trx.insertPid({
      scheme: 'doi',
      identifier,
      recordId: parentId,
      provider: this.managedProvider,
      status,
    });
    parentData.pids = {
      ...parentData.pids,
      doi: { identifier, provider: this.managedProvider, client: this.managedProvider },
    };
    return true;
  }

  /**
   * Whether `id` is a published record that `user` may open an edit draft of (its owner or an
   * admin): the editor's address then offers that instead of "not found".
   */
  async canEditPublished(user: User | undefined, id: string): Promise<boolean> {
    if (!user || !isRecordId(id)) return false;
    const record = await this.repo.getRecord(id);
    if (!record || record.deletedAt !== null) return false;
    const parent = await this.repo.getParent(record.parentId);
    return parent !== undefined && this.isOwner(user, parent);
  }

  /** GET …/draft: the draft, to its owner (and admins) only. */
  async readDraft(
    user: User | undefined,
    id: string,
    options: { feedback?: boolean } = {},
  ): Promise<DraftResult> {
    const loaded = await this.loadDraft(user, id);
    const errors = options.feedback ? this.draftFeedback(loaded.row).errors : [];
    return this.draftResult(loaded.row, loaded.parent, errors, loaded);
  }

  /**
   * Which DOI a new version's draft may take (see `DoiTransition`), from the DOI of the version
   * it follows; undefined where the rule does not apply: DOIs are required (every version gets a
   * managed one), the draft is a first version or an edit of a published one, or no earlier
   * version is left.
   */
  async doiTransition(row: DraftRow, isPublished?: boolean): Promise<DoiTransition | undefined> {
    if (this.config.doi.required || row.versionIndex <= 1) return undefined;
    if (isPublished ?? (await this.repo.getRecord(row.id)) !== undefined) return undefined;
    const previous = await this.repo.latestRecord(row.parentId);
    if (!previous) return undefined;
    return doiTransitionAfter(readJson<RecordData>(previous.data).pids.doi);
  }

  /**
   * The editor shows "Draft has validation feedback" on load: the stored draft re-validated as
   * publishing would. Its data comes along, read once for both.
   */
  draftFeedback(row: DraftRow): { data: RecordData; errors: FieldError[] } {
    const data = readJson<RecordData>(row.data);
    return { data, errors: validateForPublish(data, this.validationOptions()) };
  }

  /**
   * PUT …/draft: replaces metadata and custom_fields, keeps access/pids when omitted. With
   * If-Match the write is refused (412) when someone else saved since; without it, the write is
   * still atomic against concurrent saves.
   */
  async updateDraft(
    user: User | undefined,
    id: string,
    body: unknown,
    ifMatch: string | undefined,
  ): Promise<DraftResult> {
    // Saves take turns, each on what the one before left: with the same If-Match one wins and the
    // others get 412; without, each applies in turn, as one after the other would.
    return this.lockedDraft(user, id, 'review', (loaded) =>
      this.saveLoaded(loaded, id, body, ifMatch),
    );
  }

  private async saveLoaded(
    loaded: LoadedDraft,
    id: string,
    body: unknown,
    ifMatch: string | undefined,
  ): Promise<DraftResult> {
    const { row, parent } = loaded;
    checkRevision(ifMatch, row.revisionId);
    const previous = readJson<RecordData>(row.data);
    const { data, errors } = loadRecord(this.bodyObject(body), this.validationOptions(), previous);
    errors.push(
      ...(await this.checkAgainstServer(
        data,
        id,
        previous,
        // The grace period is for published records only: a draft never published (a first
        // draft or a new version) may always be restricted, however long ago it was made.
        row.recordCreatedAt ?? undefined,
        readSummary(row.filesSummary),
      )),
    );
    const updatedAt = nowIso();
    const set = {
      data: JSON.stringify(data),
      updatedAt,
      title: titleOf(data),
      searchText: searchText(data, id),
    };
    if (!(await this.repo.updateDraft(id, row.revisionId, set))) {
      const current = await this.repo.getDraft(id);
      throw new AppError(
        'REVISION_MISMATCH',
        `Revision id provided(${row.revisionId}) doesn't match record's one(${current?.revisionId ?? '?'})`,
      );
    }
    return this.draftResult(
      { ...row, ...set, revisionId: row.revisionId + 1 },
      parent,
      mergeErrors(errors),
      loaded,
    );
  }

  /** DELETE …/draft: discards a new draft (with its unregistered PIDs) or the edits of a published record. */
  async deleteDraft(
    user: User | undefined,
    id: string,
    ifMatch: string | undefined,
  ): Promise<void> {
    // A second discard (or one after a publish) finds no draft under the lock: 404.
    await this.lockedDraft(user, id, 'manage', (loaded) => this.discardLoaded(loaded, ifMatch));
  }

  private async discardLoaded(
    { row, parent }: LoadedDraft,
    ifMatch: string | undefined,
  ): Promise<void> {
    const id = row.id;
    checkRevision(ifMatch, row.revisionId);
    if (reviewOf(parent)?.status === 'submitted') {
      throw new AppError(
        'VALIDATION_FAILED',
        'You cannot delete a draft with an open review request. Please cancel the review request first.',
      );
    }
    const dropped = await this.repo.transaction(async (trx) => {
      const record = await trx.getRecord(id);
      const files = await this.files.discard(trx.executor, id);
      await trx.deleteDraft(id);
      if (record) return files;
      for (const pid of await trx.pidsOfRecord(id)) {
        if (pid.status === 'new') await trx.deletePid(pid.scheme, pid.identifier);
      }
      const siblings = await trx.draftsOfParent(parent.id);
      if (siblings.length === 0 && !(await trx.latestRecord(parent.id)))
        await trx.deleteParent(parent.id);
      return files;
    });
    await this.files.release(dropped.released, dropped.uploads);
  }

  /**
   * POST …/draft/actions/publish: strict validation (400 with every error), then the draft
   * becomes the published record in one transaction. DOI registration with DataCite happens
   * afterwards and never blocks publishing.
   */
  async publish(
    user: User | undefined,
    id: string,
    options: { intoCommunity?: string } = {},
  ): Promise<RecordResult> {
    // Of parallel publishes one wins; the others find the draft gone under the lock (404).
    return this.lockedDraft(user, id, 'review', async (loaded) => {
      // Only accepting the review publishes a draft under review (into its community).
      if (reviewOf(loaded.parent)?.status === 'submitted' && !options.intoCommunity)
        throw new AppError('OPEN_REVIEW_BLOCKS_PUBLISH');
      return this.publishLoaded(loaded, options);
    });
  }

  /**
   * Publishes a draft whose review a curator accepted (the request checked who may): into the
   * community, as the system, whoever the draft belongs to.
   */
  async publishIntoCommunity(id: string, communityId: string): Promise<RecordResult> {
    return inTransaction(this.repo.executor, async () => {
      const loaded = (await this.repo.lockParentOfDraft(id))
        ? await this.repo.getDraftContext(id, true)
        : undefined;
      if (!loaded) throw pidDoesNotExist();
      return this.publishLoaded(loaded, { intoCommunity: communityId });
    });
  }

  /** A draft by id with no permission check, for the modules that already made theirs. */
  async draftAsSystem(id: string): Promise<LoadedDraft | undefined> {
    return isRecordId(id) ? this.repo.getDraftContext(id) : undefined;
  }

  /** Every reason the draft cannot be published yet (400 with all of them), as publish checks. */
  async assertPublishable(row: DraftRow): Promise<void> {
    const data = readJson<RecordData>(row.data);
    const errors = await this.publishErrors(row, data);
    if (errors.length > 0) throw new AppError('VALIDATION_FAILED', undefined, mergeErrors(errors));
  }

  private async publishErrors(row: DraftRow, data: RecordData): Promise<FieldError[]> {
    const id = row.id;
    const restricted = data.access.record === 'restricted';
    const managed = data.pids.doi && data.pids.doi.provider !== 'external';
    // DataCite only hears of a reserved DOI or one minted at publish; an external DOI is neither.
    const willRegister =
      Boolean(this.config.doi.datacite) &&
      !restricted &&
      (managed || (this.config.doi.required && !data.pids.doi));
    const errors = validateForPublish(
      data,
      this.validationOptions({ publisherRequired: willRegister }),
    );
    const files = readSummary(row.filesSummary);
    if (data.files.enabled && files.count - files.pending === 0) {
      errors.push({
        field: 'files.enabled',
        messages: [
          'Missing uploaded files. To disable files for this record please mark it as metadata-only.',
        ],
      });
    } else if (data.files.enabled && files.pending > 0) {
      errors.push({
        field: 'files',
        messages: ['One or more files have not completed their transfer, please wait.'],
      });
    }
    const doi = data.pids.doi;
    const transition = await this.doiTransition(row);
    if (transition && !keepsDoiTransition(transition, doi)) {
      const site = this.config.siteName;
      errors.push({
        field: 'pids.doi',
        messages: [
          transition === 'managed'
            ? `A previous version used a DOI registered from ${site}. This version must also use a DOI from ${site}.`
            : `A previous version was published with a DOI from an external provider or without one. You cannot use a DOI registered from ${site} for this version.`,
        ],
      });
    }
    if (doi?.provider === 'external') {
      if (!doi.identifier)
        errors.push({ field: 'pids.doi', messages: ['Missing DOI for required field.'] });
      else {
        const existing = await this.repo.findPid('doi', doi.identifier);
        if (existing && existing.recordId !== id)
          errors.push({ field: 'pids.doi', messages: [`doi:${doi.identifier} already exists.`] });
      }
    }
    return errors;
  }

  private async publishLoaded(
    { row, parent }: LoadedDraft,
    options: { intoCommunity?: string },
  ): Promise<RecordResult> {
    const id = row.id;
    const data = readJson<RecordData>(row.data);
    const restricted = data.access.record === 'restricted';
    const managed = data.pids.doi && data.pids.doi.provider !== 'external';
    const errors = await this.publishErrors(row, data);
    if (errors.length > 0) throw new AppError('VALIDATION_FAILED', undefined, mergeErrors(errors));
    await this.vocabularies.assertExist(collectVocabularyRefs(data));

    const now = nowIso();
    const host = new URL(this.config.siteUrl).host;
    let released: string[] = [];
    const result = await this.repo.transaction(async (trx) => {
      const existing = await trx.getRecord(id);
      const pids = await trx.pidsOfRecord(id);
      // Restricted records get no automatic DOI, and a reserved but unregistered one is dropped.
      if (managed && restricted) {
        const reserved = pids.find((p) => p.scheme === 'doi' && p.status === 'new');
        if (reserved) {
          await trx.deletePid('doi', reserved.identifier);
          delete data.pids.doi;
        }
      }
      if (!data.pids.doi && this.config.doi.required && !restricted) {
        const identifier = `${this.config.doi.prefix}/${id}`;
        data.pids.doi = {
          identifier,
          provider: this.managedProvider,
          client: this.managedProvider,
        };
        await trx.insertPid({
          scheme: 'doi',
          identifier,
          recordId: id,
          provider: this.managedProvider,
          status: 'new',
        });
      }
      const finalDoi = data.pids.doi;
      // An edit may have replaced an external DOI: the old one is released.
      for (const pid of pids) {
        if (
          pid.scheme === 'doi' &&
          pid.identifier !== finalDoi?.identifier.toLowerCase() &&
          pid.provider === 'external'
        ) {
          await trx.deletePid('doi', pid.identifier);
        }
      }
      if (
        finalDoi?.provider === 'external' &&
        !pids.some((p) => p.identifier === finalDoi.identifier.toLowerCase())
      ) {
        await trx.insertPid({
          scheme: 'doi',
          identifier: finalDoi.identifier,
          recordId: id,
          provider: 'external',
          status: 'registered',
        });
      }
      if (finalDoi && finalDoi.provider !== 'external') {
        await trx.updatePid('doi', finalDoi.identifier, {
          status: this.config.doi.datacite ? 'publishing' : 'registered',
          nextAttemptAt: null,
        });
      }
      data.pids.oai = { identifier: `oai:${host}:${id}`, provider: 'oai' };

      const m = data.metadata as { publication_date?: string; resource_type?: { id: string } };
      const embargo = data.access.embargo;
      const record: RecordRow = {
        id,
        parentId: row.parentId,
        versionIndex: row.versionIndex,
        data: JSON.stringify(data),
        revisionId: existing ? existing.revisionId + 1 : row.revisionId + 1,
        createdAt: existing?.createdAt ?? now,
        updatedAt: now,
        title: titleOf(data),
        searchText: searchText(data, id),
        isLatest: existing?.isLatest ?? 0,
        publicationDate: m.publication_date ?? '',
        resourceType: m.resource_type?.id ?? '',
        accessRecord: data.access.record,
        embargoUntil: embargo?.active && embargo.until ? embargo.until : null,
        accessStatus: computeAccessStatus(data.access, data.files.enabled),
        publishedAt: existing?.publishedAt ?? now,
        deletedAt: null,
        filesSummary: null,
      };
      const moved = await this.files.publish(trx.executor, id);
      released = moved.released;
      record.filesSummary = JSON.stringify(moved.summary);
      await trx.upsertRecord(record);
      await trx.deleteDraft(id);
      const latest = await trx.latestRecord(row.parentId);
      if (latest) await trx.setLatest(row.parentId, latest.id);
      const parentData = readJson<ParentData>(parent.data);
      let parentChanged = false;
      if (finalDoi && finalDoi.provider !== 'external') {
        parentChanged = await this.keepConceptDoi(trx, row.parentId, parentData);
      }
      if (parentData.review || options.intoCommunity) {
        // A published record has no review any more; an accepted one puts it in the community.
        delete parentData.review;
        if (options.intoCommunity) {
          const ids = (parentData.communities.ids as string[] | undefined) ?? [];
          parentData.communities = {
            ids: [...new Set([...ids, options.intoCommunity])],
            default: parentData.communities.default ?? options.intoCommunity,
          };
          await trx.setCommunities(row.parentId, parentData.communities.ids as string[], now);
        }
        parentChanged = true;
      }
      if (parentChanged) await trx.updateParent(row.parentId, JSON.stringify(parentData), now);
      const stored = await trx.getRecord(id);
      return { row: stored!, parent: (await trx.getParent(row.parentId))! };
    });
    await this.files.release(released);
    if (
      this.config.doi.datacite &&
      readJson<RecordData>(result.row.data).pids.doi?.provider !== 'external'
    )
      await afterCommit(() => this.doiQueue.kick());
    return result;
  }

  /** `found` is the row a caller already read, so a page view reads the record once. */
  private async loadRecordRow(id: string, found?: RecordRow): Promise<RecordRow> {
    const row = found ?? (isRecordId(id) ? await this.repo.getRecord(id) : undefined);
    if (!row) {
      if (isRecordId(id) && (await this.repo.getDraft(id)))
        throw new AppError('PID_NOT_REGISTERED');
      throw pidDoesNotExist();
    }
    if (row.deletedAt)
      throw new AppError('RECORD_DELETED', undefined, undefined, {
        tombstone: { removal_date: row.deletedAt },
      });
    return row;
  }

  /** Public records to anyone; restricted ones to the owner and the members of its communities. */
  private async canView(user: User | undefined, row: RecordRow, parent: ParentRow) {
    if (row.accessRecord === 'public' || this.isOwner(user, parent)) return true;
    return user !== undefined && this.repo.isMemberOfCommunityOf(parent.id, user.id);
  }

  /**
   * A published record the caller may see, for the modules around records (its communities).
   * Throws PID_DOES_NOT_EXIST, PID_NOT_REGISTERED, RECORD_DELETED, PERMISSION_DENIED.
   */
  async readVisible(user: User | undefined, id: string, found?: RecordRow): Promise<RecordResult> {
    const row = await this.loadRecordRow(id, found);
    const parent = await this.parentOf(row.parentId);
    if (!(await this.canView(user, row, parent))) throw permissionDenied();
    return { row, parent };
  }

  /** Whether the user owns the record's parent (administrators own everything). */
  owns(user: User | undefined, parent: ParentRow): boolean {
    return this.isOwner(user, parent);
  }

  /** A live published record by id with no permission check, for request handlers. */
  async recordAsSystem(id: string): Promise<RecordResult | undefined> {
    const row = isRecordId(id) ? await this.repo.getRecord(id) : undefined;
    if (!row || row.deletedAt) return undefined;
    return { row, parent: await this.parentOf(row.parentId) };
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

  /**
   * GET /api/records/{id}: a published record. A parent id redirects (301) to its latest version,
   * an unpublished draft's id is "not registered" (404), a restricted record is 403 to strangers.
   */
  async readRecord(
    user: User | undefined,
    id: string,
  ): Promise<RecordResult | { redirect: string }> {
    const row = isRecordId(id) ? await this.repo.getRecord(id) : undefined;
    if (!row && isRecordId(id) && (await this.repo.getParent(id))) {
      const latest = await this.repo.latestRecord(id);
      if (latest) return { redirect: latest.id };
    }
    return this.readVisible(user, id, row);
  }

  /**
   * POST /api/records/{id}/draft: opens (or returns) the edit draft of a published record.
   * Parallel calls all get the one draft: the first opens it under the parent's lock, the others
   * find it there.
   */
  async edit(user: User | undefined, id: string): Promise<DraftResult> {
    const first = await this.loadRecordRow(id);
    this.assertCanManage(user, await this.parentOf(first.parentId));
    return this.locked(first.parentId, async (parent) => {
      const record = await this.loadRecordRow(id);
      const existing = await this.repo.getDraft(id);
      if (existing) return this.draftResult(existing, parent);
      const now = nowIso();
      const row: DraftRow = {
        id,
        parentId: record.parentId,
        versionIndex: record.versionIndex,
        data: typeof record.data === 'string' ? record.data : JSON.stringify(record.data),
        revisionId: record.revisionId,
        createdAt: record.createdAt,
        updatedAt: now,
        title: record.title,
        searchText: record.searchText,
        expiresAt: new Date(Date.now() + DRAFT_LIFETIME_DAYS * 86_400_000).toISOString(),
        recordCreatedAt: record.createdAt,
        filesSummary: null,
        unpublishedParentId: null,
      };
      row.filesSummary = JSON.stringify(await this.files.edit(this.repo.executor, id));
      await this.repo.insertDraft(row);
      return this.draftResult(row, parent);
    });
  }

  /**
   * POST /api/records/{id}/versions: a new-version draft (or the existing one). Metadata is
   * copied without `version`, the publication date becomes today, no PIDs, no files. Parallel
   * calls all get the one draft, as calls one after the other do; a unique index on
   * `unpublished_parent_id` holds the rule in the schema as well.
   */
  async newVersion(user: User | undefined, id: string): Promise<DraftResult> {
    const first = await this.loadRecordRow(id);
    this.assertCanManage(user, await this.parentOf(first.parentId));
    return this.locked(first.parentId, async (parent) => {
      const record = await this.loadRecordRow(id);
      const drafts = await this.repo.draftsOfParent(parent.id);
      const published = new Set(
        (await this.repo.getRecords(drafts.map((d) => d.id))).map((r) => r.id),
      );
      const pending = drafts.find((d) => !published.has(d.id));
      if (pending) return this.draftResult(pending, parent);
      const latest = (await this.repo.latestRecord(parent.id)) ?? record;
      const source = readJson<RecordData>(latest.data);
      const metadata = { ...source.metadata } as Record<string, unknown>;
      delete metadata.version;
      metadata.publication_date = today();
      const data: RecordData = {
        metadata,
        custom_fields: source.custom_fields,
        access: source.access,
        files: { enabled: source.files.enabled },
        pids: {},
      };
      const newId = newRecordId();
      const now = nowIso();
      const row: DraftRow = {
        id: newId,
        parentId: parent.id,
        versionIndex: (await this.repo.maxVersionIndex(parent.id)) + 1,
        data: JSON.stringify(data),
        revisionId: 1,
        createdAt: now,
        updatedAt: now,
        title: titleOf(data),
        searchText: searchText(data, newId),
        expiresAt: new Date(Date.now() + DRAFT_LIFETIME_DAYS * 86_400_000).toISOString(),
        recordCreatedAt: null,
        filesSummary: null,
        unpublishedParentId: parent.id,
      };
      await this.repo.insertDraft(row);
      return { row, parent, isPublished: false, isLatestDraft: true, errors: [] };
    });
  }

  /**
   * The parent of a record or draft id, for the versions endpoints, and whether the caller may see
   * its restricted versions (all versions share one owner). Throws PID_DOES_NOT_EXIST,
   * PERMISSION_DENIED.
   */
  async parentForVersions(
    user: User | undefined,
    id: string,
  ): Promise<{ parent: ParentRow; includeRestricted: boolean }> {
    const row = isRecordId(id)
      ? ((await this.repo.getRecord(id)) ?? (await this.repo.getDraft(id)))
      : undefined;
    if (!row) {
      const parent = isRecordId(id) ? await this.repo.getParent(id) : undefined;
      if (parent) return { parent, includeRestricted: this.isOwner(user, parent) };
      throw pidDoesNotExist();
    }
    const parent = await this.parentOf(row.parentId);
    if ('accessRecord' in row && !(await this.canView(user, row, parent))) throw permissionDenied();
    if (!('accessRecord' in row) && !this.isOwner(user, parent)) throw permissionDenied();
    return { parent, includeRestricted: this.isOwner(user, parent) };
  }

  async latestVersionId(user: User | undefined, id: string): Promise<string> {
    const { parent } = await this.parentForVersions(user, id);
    const latest = await this.repo.latestRecord(parent.id);
    if (!latest) throw pidDoesNotExist();
    return latest.id;
  }

  /**
   * POST …/draft/pids/doi: reserves a managed DOI for the draft (201), once: a second call, also a
   * parallel one, finds it reserved (400).
   */
  async reservePid(user: User | undefined, id: string, scheme: string): Promise<DraftResult> {
    if (scheme !== 'doi') throw pidDoesNotExist();
    return this.lockedDraft(user, id, 'review', (loaded) => this.reserveLoaded(loaded, id));
  }

  private async reserveLoaded(loaded: LoadedDraft, id: string): Promise<DraftResult> {
    const data = readJson<RecordData>(loaded.row.data);
    if (data.pids.doi) {
      throw new AppError('PID_ALREADY_EXISTS', undefined, [
        { field: 'pids.doi', messages: ['A PID already exists for type doi'] },
      ]);
    }
    const identifier = `${this.config.doi.prefix}/${id}`;
    data.pids.doi = { identifier, provider: this.managedProvider, client: this.managedProvider };
    return this.writePids(loaded, data, async (trx) => {
      const existing = await trx.findPid('doi', identifier);
      if (!existing)
        await trx.insertPid({
          scheme: 'doi',
          identifier,
          recordId: id,
          provider: this.managedProvider,
          status: 'new',
        });
    });
  }

  /** DELETE …/draft/pids/doi: discards the draft's DOI (200 with the draft); 404 when none. */
  async discardPid(user: User | undefined, id: string, scheme: string): Promise<DraftResult> {
    if (scheme !== 'doi') throw pidDoesNotExist();
    return this.lockedDraft(user, id, 'review', (loaded) => this.discardPidLoaded(loaded));
  }

  private async discardPidLoaded(loaded: LoadedDraft): Promise<DraftResult> {
    const data = readJson<RecordData>(loaded.row.data);
    const doi = data.pids.doi;
    if (!doi) throw pidDoesNotExist();
    const pid =
      doi.provider === 'external' ? undefined : await this.repo.findPid('doi', doi.identifier);
    if (pid && pid.status !== 'new') {
      throw new AppError('VALIDATION_FAILED', 'A registered DOI cannot be discarded.', [
        { field: 'pids.doi', messages: ['A registered DOI cannot be discarded.'] },
      ]);
    }
    delete data.pids.doi;
    return this.writePids(loaded, data, async (trx) => {
      if (pid) await trx.deletePid('doi', pid.identifier);
    });
  }

  private async writePids(
    loaded: LoadedDraft,
    data: RecordData,
    extra: (trx: RecordsRepository) => Promise<void>,
  ): Promise<DraftResult> {
    const { row, parent } = loaded;
    const set = {
      data: JSON.stringify(data),
      updatedAt: nowIso(),
      title: row.title,
      searchText: row.searchText,
    };
    await this.repo.transaction(async (trx) => {
      await extra(trx);
      if (!(await trx.updateDraft(row.id, row.revisionId, set))) {
        throw new AppError(
          'REVISION_MISMATCH',
          `Revision id provided(${row.revisionId}) doesn't match record's one(${row.revisionId + 1})`,
        );
      }
    });
    return this.draftResult({ ...row, ...set, revisionId: row.revisionId + 1 }, parent, [], loaded);
  }

  /** A draft for the files endpoints: its owner (or an admin) only, like every draft route. */
  async draftForFiles(user: User | undefined, id: string): Promise<LoadedDraft> {
    return this.loadDraft(user, id);
  }

  /**
   * A published record whose files the caller may read: the record must be visible, and
   * restricted (or embargoed) files are for the owner and admins only (403 to others).
   */
  async recordForFiles(
    user: User | undefined,
    id: string,
  ): Promise<RecordResult & { data: RecordData }> {
    const row = await this.loadRecordRow(id);
    const parent = await this.parentOf(row.parentId);
    if (!(await this.canView(user, row, parent))) throw permissionDenied();
    const data = readJson<RecordData>(row.data);
    const closed = data.access.files === 'restricted' || data.access.embargo?.active === true;
    if (closed && !this.isOwner(user, parent)) throw permissionDenied();
    return { row, parent, data };
  }

  /**
   * The version a new-version draft imports files from: the parent's latest published record.
   * 404 for a first version, which has nothing to import (as InvenioRDM answers).
   */
  async previousVersionForImport(id: string): Promise<{ id: string; filesEnabled: boolean }> {
    const draft = await this.repo.getDraft(id);
    if (!draft || draft.versionIndex <= 1 || (await this.repo.getRecord(id)))
      throw pidDoesNotExist();
    const latest = await this.repo.latestRecord(draft.parentId);
    if (!latest) throw pidDoesNotExist();
    return { id: latest.id, filesEnabled: readJson<RecordData>(latest.data).files.enabled };
  }

  /**
   * Lifts embargoes whose date has come: record and files become public, the embargo stays
   * recorded (inactive) so the landing page can say when it was lifted. Returns how many.
   */
  async liftExpiredEmbargoes(): Promise<number> {
    const due = await this.repo.expiredEmbargoes(today(), 500);
    let lifted = 0;
    for (const found of due) {
      // Under the parent's lock, on the record as it is now: a publish of its edit may have
      // come between, carrying the embargo or not.
      lifted += await this.locked(found.parentId, async () => {
        const row = await this.repo.getRecord(found.id);
        if (!row?.embargoUntil || row.embargoUntil > today()) return 0;
        const data = readJson<RecordData>(row.data);
        data.access = {
          record: 'public',
          files: 'public',
          embargo: { ...data.access.embargo, active: false },
        };
        await this.repo.bumpRecordRevision(row.id, JSON.stringify(data), nowIso(), {
          accessRecord: 'public',
          embargoUntil: null,
          accessStatus: computeAccessStatus(data.access, data.files.enabled),
        });
        const draft = await this.repo.getDraft(row.id);
        if (draft) {
          const draftData = readJson<RecordData>(draft.data);
          draftData.access = data.access;
          await this.repo.updateDraft(draft.id, draft.revisionId, {
            data: JSON.stringify(draftData),
            updatedAt: nowIso(),
            title: draft.title,
            searchText: draft.searchText,
          });
        }
        return 1;
      });
    }
    return lifted;
  }
}
