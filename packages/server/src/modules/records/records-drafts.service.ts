import {
  collectVocabularyRefs,
  loadRecord,
  validateForPublish,
  type FieldError,
  type RecordData,
} from '@cairn/shared';
import type { Config } from '../../config.js';
import { AppError, permissionDenied, pidDoesNotExist } from '../../errors.js';
import { nowIso } from '../../database/database.js';
import { readJson } from '../../database/schema.js';
import { sanitizeRichText } from '../../lib/html.js';
import { checkRevision } from '../../lib/revision.js';
import type { User } from '../users/users.service.js';
import type { VocabulariesService } from '../vocabularies/vocabularies.service.js';
import type { FilesLifecycle } from '../files/files.lifecycle.js';
import { EMPTY_SUMMARY, readSummary, type FilesSummary } from '../files/files.summary.js';
import { newRecordId } from './record-id.js';
import type { RecordsRepository } from './records.repository.js';
import type { DraftRow, ParentData, ParentRow } from './records.rows.js';
import type { RecordPidsService } from './records-pids.service.js';
import {
  draftRow,
  mergeErrors,
  reviewOf,
  revisionMismatch,
  searchText,
  titleOf,
  today,
  validationOptions,
  type DraftResult,
  type LinkGrant,
  type LoadedDraft,
  type RecordStore,
} from './records.shared.js';

const GRACE_MESSAGE =
  'Record visibility can not be changed to restricted anymore. Please contact support if you still need to make these changes.';

/**
 * What a new draft learns from community reviews (reviews module) without knowing requests:
 * the review its create body asks for (`parent.review` of `POST /api/records`), checked as
 * `PUT {draft}/review` would before anything is written, so that a refused review creates no draft.
 */
export interface ReviewOpening {
  prepareReview(user: User, review: unknown): Promise<PreparedReview>;
}

/** A review checked for a draft about to be created. */
export interface PreparedReview {
  /** The community takes restricted records only: the draft is created restricted. */
  restricted: boolean;
  /** Opens the review (status `created`) on the new draft. */
  attach(draft: LoadedDraft): Promise<void>;
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

function bodyObject(body: unknown): unknown {
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) {
    throw new AppError('VALIDATION_FAILED', undefined, [
      { field: '_schema', messages: ['Invalid input type.'] },
    ]);
  }
  return body;
}

/**
 * Drafts, as InvenioRDM's draft lifecycle has them: create, save with partial validation,
 * discard, the edit draft of a published record and the draft of a new version.
 * Throws AppError with the contract's codes; never sees HTTP.
 */
export class RecordDraftsService {
  private readonly repo: RecordsRepository;

  constructor(
    private readonly store: RecordStore,
    private readonly pids: RecordPidsService,
    private readonly vocabularies: VocabulariesService,
    private readonly config: Config,
    private readonly files: FilesLifecycle,
    private readonly reviews: ReviewOpening,
  ) {
    this.repo = store.repo;
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
    await this.vocabularies.assertExist(collectVocabularyRefs(data));
    sanitizeDescriptions(data);
    const errors = await this.pids.checkDraftPids(data, draftId, previous);

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

    const preview = data.files.default_preview;
    if (
      preview &&
      !(files.entries
        ? files.entries[preview]
        : await this.files.draftHasFile(this.repo.executor, draftId, preview))
    ) {
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

  /**
   * POST /api/records: a new draft owned by the caller; invalid parts are dropped and reported.
   * `parent.review` opens a community review with it, as InvenioRDM allows.
   */
  async createDraft(user: User | undefined, body: unknown): Promise<DraftResult> {
    if (!user) throw permissionDenied();
    const source = bodyObject(body);
    const asked = requestedReview(source);
    const review = asked === undefined ? undefined : await this.reviews.prepareReview(user, asked);
    const { data, errors } = loadRecord(source, validationOptions(this.config));
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
    const row = draftRow(
      { id, parentId: parent.id, versionIndex: 1, updatedBy: user.id },
      { data },
      now,
    );
    await this.repo.transaction(async (trx) => {
      await trx.insertParent(parent);
      await trx.insertDraft(row);
    });
    if (review) await review.attach({ row, parent, isPublished: false, maxDraftVersion: 1 });
    return {
      row,
      parent: review ? await this.store.parentOf(parent.id) : parent,
      isPublished: false,
      isLatestDraft: true,
      errors: mergeErrors(errors),
    };
  }

  /** GET …/draft: the draft, to its owner (and admins), its reviewers and preview links. */
  async readDraft(
    user: User | undefined,
    id: string,
    options: { feedback?: boolean; link?: LinkGrant; need?: 'read' | 'review' } = {},
  ): Promise<DraftResult> {
    const loaded = await this.store.loadDraft(
      user,
      id,
      options.need ?? 'read',
      false,
      options.link,
    );
    const errors = options.feedback ? this.draftFeedback(loaded.row).errors : [];
    return this.store.draftResult(loaded.row, loaded.parent, errors, loaded);
  }

  /**
   * The editor shows "Draft has validation feedback" on load: the stored draft re-validated as
   * publishing would. Its data comes along, read once for both.
   */
  draftFeedback(row: DraftRow): { data: RecordData; errors: FieldError[] } {
    const data = readJson<RecordData>(row.data);
    return { data, errors: validateForPublish(data, validationOptions(this.config)) };
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
    link?: LinkGrant,
  ): Promise<DraftResult> {
    // Saves take turns, each on what the one before left: with the same If-Match one wins and the
    // others get 412; without, each applies in turn, as one after the other would.
    return this.store.lockedDraft(
      user,
      id,
      'review',
      (loaded) => this.saveLoaded(user, loaded, id, body, ifMatch),
      link,
    );
  }

  private async saveLoaded(
    user: User | undefined,
    loaded: LoadedDraft,
    id: string,
    body: unknown,
    ifMatch: string | undefined,
  ): Promise<DraftResult> {
    const { row, parent } = loaded;
    checkRevision(ifMatch, row.revisionId);
    const previous = readJson<RecordData>(row.data);
    const { data, errors } = loadRecord(bodyObject(body), validationOptions(this.config), previous);
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
      updatedBy: user?.id ?? null,
    };
    if (!(await this.repo.updateDraft(row, set, { previous, data })))
      throw await revisionMismatch(this.repo, row);
    return this.store.draftResult(
      { ...row, ...set, revisionId: row.revisionId + 1 },
      parent,
      mergeErrors(errors),
      loaded,
    );
  }

  /**
   * A restricted community takes restricted records only: record and files become restricted,
   * a change of `by`'s (who chose the community).
   */
  async restrictDraft(loaded: LoadedDraft, by: User): Promise<void> {
    const data = readJson<RecordData>(loaded.row.data);
    if (data.access.record === 'restricted' && data.access.files === 'restricted') return;
    data.access = restrictedAccess(data.access);
    const set = {
      data: JSON.stringify(data),
      updatedAt: nowIso(),
      title: loaded.row.title,
      searchText: loaded.row.searchText,
      updatedBy: by.id,
    };
    if (!(await this.repo.updateDraft(loaded.row, set))) throw new AppError('CONFLICT');
  }

  /** DELETE …/draft: discards a new draft (with its unregistered PIDs) or the edits of a published record. */
  async deleteDraft(
    user: User | undefined,
    id: string,
    ifMatch: string | undefined,
  ): Promise<void> {
    // A second discard (or one after a publish) finds no draft under the lock: 404.
    await this.store.lockedDraft(user, id, 'manage', (loaded) =>
      this.discardLoaded(loaded, ifMatch),
    );
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
   * POST /api/records/{id}/draft: opens (or returns) the edit draft of a published record.
   * Parallel calls all get the one draft: the first opens it under the parent's lock, the others
   * find it there.
   */
  async edit(user: User | undefined, id: string): Promise<DraftResult> {
    const first = await this.store.loadRecordRow(id);
    const caller = await this.store.assertCanManage(
      user,
      await this.store.parentOf(first.parentId),
    );
    return this.store.locked(first.parentId, async (parent) => {
      const record = await this.store.loadRecordRow(id);
      const existing = await this.repo.getDraft(id);
      if (existing) return this.store.draftResult(existing, parent);
      const filesSummary = JSON.stringify(await this.files.edit(this.repo.executor, id));
      const row = draftRow(
        { id, parentId: record.parentId, versionIndex: record.versionIndex, updatedBy: caller.id },
        { edits: record, filesSummary },
      );
      await this.repo.insertDraft(row);
      return this.store.draftResult(row, parent);
    });
  }

  /**
   * POST /api/records/{id}/versions: a new-version draft (or the existing one). Metadata is
   * copied without `version`, the publication date becomes today, no PIDs, no files. Parallel
   * calls all get the one draft, as calls one after the other do; a unique index on
   * `unpublished_parent_id` holds the rule in the schema as well.
   */
  async newVersion(user: User | undefined, id: string): Promise<DraftResult> {
    const first = await this.store.loadRecordRow(id);
    const caller = await this.store.assertCanManage(
      user,
      await this.store.parentOf(first.parentId),
    );
    return this.store.locked(first.parentId, async (parent) => {
      const record = await this.store.loadRecordRow(id);
      const drafts = await this.repo.draftsOfParent(parent.id);
      const published = new Set(
        (await this.repo.getRecords(drafts.map((d) => d.id))).map((r) => r.id),
      );
      const pending = drafts.find((d) => !published.has(d.id));
      if (pending) return this.store.draftResult(pending, parent);
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
      const versionIndex = (await this.repo.maxVersionIndex(parent.id)) + 1;
      const row = draftRow(
        { id: newRecordId(), parentId: parent.id, versionIndex, updatedBy: caller.id },
        { data },
      );
      await this.repo.insertDraft(row);
      return { row, parent, isPublished: false, isLatestDraft: true, errors: [] };
    });
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
}
