import { computeAccessStatus, type GrantPermission, type RecordData } from '@cairn/shared';
import { permissionDenied, pidDoesNotExist } from '../../errors.js';
import { nowIso } from '../../database/database.js';
import { readJson } from '../../database/schema.js';
import type { User } from '../users/users.service.js';
import { isRecordId } from './record-id.js';
import type { RecordsRepository } from './records.repository.js';
import type { ParentRow, RecordRow } from './records.rows.js';
import {
  isOwner,
  today,
  type LinkGrant,
  type LoadedDraft,
  type RecordResult,
  type RecordStore,
} from './records.shared.js';

/**
 * Who may see, edit and manage drafts and published records, and the reads that apply it; also
 * the lifting of embargoes, which opens records to everyone when their date comes.
 */
export class RecordAccessService {
  private readonly repo: RecordsRepository;

  constructor(private readonly store: RecordStore) {
    this.repo = store.repo;
  }

  /**
   * Public records to anyone; restricted ones to the owner, the holders of a link to it or a
   * grant on it, and the members of its communities.
   */
  private async canView(
    user: User | undefined,
    row: RecordRow,
    parent: ParentRow,
    link: LinkGrant | undefined,
  ) {
    if (row.accessRecord === 'public' || isOwner(user, parent)) return true;
    if (await this.store.allows(user, link, parent, 'view')) return true;
    return user !== undefined && this.repo.isMemberOfCommunityOf(parent.id, user.id);
  }

  /** The permission `user` holds on the parent by a grant (the pages name it), if any. */
  grantOf(user: User | undefined, parent: ParentRow): Promise<GrantPermission | undefined> {
    return this.store.grantOf(user, parent);
  }

  /** Whether the user owns the record's parent (administrators own everything). */
  owns(user: User | undefined, parent: ParentRow): boolean {
    return isOwner(user, parent);
  }

  /**
   * What `user` may do with a draft of `parent` in the editor (the page's `permissions`): its
   * owner (or an admin) and a `manage` grantee manage it, delete it and make new versions; a
   * curator reviewing it, or an `edit` grantee, may read and edit but not change its community
   * or versions.
   */
  async draftPermissions(
    user: User | undefined,
    parent: ParentRow,
  ): Promise<{ can_manage: boolean; can_new_version: boolean; can_delete_draft: boolean }> {
    const manager = await this.store.canManage(user, parent);
    return { can_manage: manager, can_new_version: manager, can_delete_draft: manager };
  }

  /**
   * Whether `id` is a published record that `user` may open an edit draft of (whoever manages
   * it): the editor's address then offers that instead of "not found".
   */
  async canEditPublished(user: User | undefined, id: string): Promise<boolean> {
    if (!user || !isRecordId(id)) return false;
    const record = await this.repo.getRecord(id);
    if (!record || record.deletedAt !== null) return false;
    const parent = await this.repo.getParent(record.parentId);
    return parent !== undefined && this.store.canManage(user, parent);
  }

  /**
   * A published record the caller may see, for the modules around records (its communities).
   * Throws PID_DOES_NOT_EXIST, PID_NOT_REGISTERED, RECORD_DELETED, PERMISSION_DENIED.
   */
  async readVisible(
    user: User | undefined,
    id: string,
    found?: RecordRow,
    link?: LinkGrant,
  ): Promise<RecordResult> {
    const row = await this.store.loadRecordRow(id, found);
    const parent = await this.store.parentOf(row.parentId);
    if (!(await this.canView(user, row, parent, link))) throw permissionDenied();
    return { row, parent };
  }

  /**
   * GET /api/records/{id}: a published record. A parent id redirects (301) to its latest version,
   * an unpublished draft's id is "not registered" (404), a restricted record is 403 to strangers.
   */
  async readRecord(
    user: User | undefined,
    id: string,
    link?: LinkGrant,
  ): Promise<RecordResult | { redirect: string }> {
    const row = isRecordId(id) ? await this.repo.getRecord(id) : undefined;
    if (!row && isRecordId(id) && (await this.repo.getParent(id))) {
      const latest = await this.repo.latestRecord(id);
      if (latest) return { redirect: latest.id };
    }
    return this.readVisible(user, id, row, link);
  }

  /** A live published record by id with no permission check, for request handlers. */
  async recordAsSystem(id: string): Promise<RecordResult | undefined> {
    const row = isRecordId(id) ? await this.repo.getRecord(id) : undefined;
    if (!row || row.deletedAt) return undefined;
    return { row, parent: await this.store.parentOf(row.parentId) };
  }

  /** A draft by id with no permission check, for the modules that already made theirs. */
  async draftAsSystem(id: string): Promise<LoadedDraft | undefined> {
    return isRecordId(id) ? this.repo.getDraftContext(id) : undefined;
  }

  /**
   * A draft for the files endpoints, as the draft's own routes allow it: `read` to whoever may
   * read the draft (preview links too), `review` to whoever may edit it.
   */
  async draftForFiles(
    user: User | undefined,
    id: string,
    need: 'read' | 'review' = 'review',
    link?: LinkGrant,
  ): Promise<LoadedDraft> {
    return this.store.loadDraft(user, id, need, false, link);
  }

  /** A draft the caller may edit, as saving it needs (metadata imports ask so). */
  async draftToEdit(user: User | undefined, id: string, link?: LinkGrant): Promise<LoadedDraft> {
    return this.store.loadDraft(user, id, 'review', false, link);
  }

  /** A draft its owner manages (reviews, community choice); curators of the review do not. */
  async draftForManage(user: User | undefined, id: string): Promise<LoadedDraft> {
    return this.store.loadDraft(user, id, 'manage');
  }

  /**
   * A published record whose files the caller may read: the record must be visible, and
   * restricted (or embargoed) files are for the owner, admins, link holders and grantees (403 to
   * others).
   */
  async recordForFiles(
    user: User | undefined,
    id: string,
    link?: LinkGrant,
  ): Promise<RecordResult & { data: RecordData }> {
    const { row, parent } = await this.readVisible(user, id, undefined, link);
    const data = readJson<RecordData>(row.data);
    if (!(await this.mayReadFiles(user, parent, data, link))) throw permissionDenied();
    return { row, parent, data };
  }

  /** Whether the caller may read the files of a record it may see (see recordForFiles). */
  async mayReadFiles(
    user: User | undefined,
    parent: ParentRow,
    data: Pick<RecordData, 'access'>,
    link?: LinkGrant,
  ): Promise<boolean> {
    const closed = data.access.files === 'restricted' || data.access.embargo?.active === true;
    return !closed || isOwner(user, parent) || this.store.allows(user, link, parent, 'view');
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
      if (parent) return { parent, includeRestricted: await this.seesRestricted(user, parent) };
      throw pidDoesNotExist();
    }
    const parent = await this.store.parentOf(row.parentId);
    if ('accessRecord' in row && !(await this.canView(user, row, parent, undefined)))
      throw permissionDenied();
    if (!('accessRecord' in row) && !isOwner(user, parent))
      if (!(await this.store.granted(user, parent, 'preview'))) throw permissionDenied();
    return { parent, includeRestricted: await this.seesRestricted(user, parent) };
  }

  /** Whether `user` sees every version of the parent, the restricted ones too. */
  private async seesRestricted(user: User | undefined, parent: ParentRow): Promise<boolean> {
    return isOwner(user, parent) || this.store.granted(user, parent, 'view');
  }

  async latestVersionId(user: User | undefined, id: string): Promise<string> {
    const { parent } = await this.parentForVersions(user, id);
    const latest = await this.repo.latestRecord(parent.id);
    if (!latest) throw pidDoesNotExist();
    return latest.id;
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
      lifted += await this.store.locked(found.parentId, async () => {
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
          await this.repo.updateDraft(draft, {
            data: JSON.stringify(draftData),
            updatedAt: nowIso(),
            title: draft.title,
            searchText: draft.searchText,
            // The embargo's end, not a person, changed it.
            updatedBy: null,
          });
        }
        return 1;
      });
    }
    return lifted;
  }
}
