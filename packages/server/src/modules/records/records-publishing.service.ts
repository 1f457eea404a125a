import {
  collectVocabularyRefs,
  validateForPublish,
  type FieldError,
  type RecordData,
} from '@cairn/shared';
import type { Config } from '../../config.js';
import { AppError, pidDoesNotExist } from '../../errors.js';
import { nowIso } from '../../database/database.js';
import { readJson } from '../../database/schema.js';
import { afterCommit, inTransaction } from '../../database/unit-of-work.js';
import type { User } from '../users/users.service.js';
import type { VocabulariesService } from '../vocabularies/vocabularies.service.js';
import type { FilesLifecycle } from '../files/files.lifecycle.js';
import { readSummary } from '../files/files.summary.js';
import type { RecordsRepository } from './records.repository.js';
import type { DraftRow, ParentData, RecordRow } from './records.rows.js';
import type { RecordPidsService } from './records-pids.service.js';
import {
  deletedError,
  mergeErrors,
  publishedColumns,
  reviewOf,
  validationOptions,
  type LinkGrant,
  type LoadedDraft,
  type RecordResult,
  type RecordStore,
} from './records.shared.js';

/** Notified after a managed DOI's record is published, so DataCite registration starts at once. */
export interface DoiRegistrationQueue {
  kick(): void;
}

/**
 * Publishing: strict validation, then the draft becomes the published record in one
 * transaction with its PIDs, files, version bookkeeping (the latest version) and communities.
 */
export class RecordPublishingService {
  private readonly repo: RecordsRepository;

  constructor(
    private readonly store: RecordStore,
    private readonly pids: RecordPidsService,
    private readonly vocabularies: VocabulariesService,
    private readonly config: Config,
    private readonly files: FilesLifecycle,
    private readonly doiQueue: DoiRegistrationQueue,
  ) {
    this.repo = store.repo;
  }

  /**
   * POST …/draft/actions/publish: strict validation (400 with every error), then the draft
   * becomes the published record in one transaction. DOI registration with DataCite happens
   * afterwards and never blocks publishing.
   */
  async publish(
    user: User | undefined,
    id: string,
    options: { intoCommunity?: string; link?: LinkGrant } = {},
  ): Promise<RecordResult> {
    // Of parallel publishes one wins; the others find the draft gone under the lock (404).
    return this.store.lockedDraft(
      user,
      id,
      'review',
      async (loaded) => {
        // Only accepting the review publishes a draft under review (into its community).
        if (reviewOf(loaded.parent)?.status === 'submitted' && !options.intoCommunity)
          throw new AppError('OPEN_REVIEW_BLOCKS_PUBLISH');
        return this.publishLoaded(loaded, options);
      },
      options.link,
    );
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

  /** Every reason the draft cannot be published yet (400 with all of them), as publish checks. */
  async assertPublishable(row: DraftRow): Promise<void> {
    const data = readJson<RecordData>(row.data);
    const errors = await this.publishErrors(row, data);
    if (errors.length > 0) throw new AppError('VALIDATION_FAILED', undefined, mergeErrors(errors));
  }

  private async publishErrors(row: DraftRow, data: RecordData): Promise<FieldError[]> {
    const restricted = data.access.record === 'restricted';
    const managed = data.pids.doi && data.pids.doi.provider !== 'external';
    // DataCite only hears of a reserved DOI or one minted at publish; an external DOI is neither.
    const willRegister =
      Boolean(this.config.doi.datacite) &&
      !restricted &&
      (managed || (this.config.doi.required && !data.pids.doi));
    const errors = validateForPublish(
      data,
      validationOptions(this.config, { publisherRequired: willRegister }),
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
    errors.push(...(await this.pids.publishErrors(row, data)));
    return errors;
  }

  private async publishLoaded(
    { row, parent }: LoadedDraft,
    options: { intoCommunity?: string },
  ): Promise<RecordResult> {
    const id = row.id;
    const data = readJson<RecordData>(row.data);
    const errors = await this.publishErrors(row, data);
    if (errors.length > 0) throw new AppError('VALIDATION_FAILED', undefined, mergeErrors(errors));
    await this.vocabularies.assertExist(collectVocabularyRefs(data));

    const now = nowIso();
    let released: string[] = [];
    const result = await this.repo.transaction(async (trx) => {
      const existing = await trx.getRecord(id);
      // An edit begun before the record was deleted cannot bring it back: restoring does that.
      if (existing?.deletedAt) throw deletedError(existing);
      await this.pids.publishPids(trx, id, data, await trx.pidsOfRecord(id));
      const finalDoi = data.pids.doi;

      const record: RecordRow = {
        id,
        parentId: row.parentId,
        versionIndex: row.versionIndex,
        data: JSON.stringify(data),
        revisionId: existing ? existing.revisionId + 1 : row.revisionId + 1,
        createdAt: existing?.createdAt ?? now,
        updatedAt: now,
        ...publishedColumns(data, id),
        isLatest: existing?.isLatest ?? 0,
        publishedAt: existing?.publishedAt ?? now,
        deletedAt: null,
        tombstone: null,
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
        parentChanged = await this.pids.keepConceptDoi(trx, row.parentId, parentData);
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
}
