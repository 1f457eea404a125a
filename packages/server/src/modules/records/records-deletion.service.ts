import type { DeleteRecordBody, RecordData, Tombstone } from '@cairn/shared';
import { nowIso } from '../../database/database.js';
import { afterCommit } from '../../database/unit-of-work.js';
import { readJson } from '../../database/schema.js';
import { AppError, pidDoesNotExist, validationFailed } from '../../errors.js';
import type { BodyReader } from '../../lib/body.js';
import type { User } from '../users/users.service.js';
import type { VocabulariesService } from '../vocabularies/vocabularies.service.js';
import { isRecordId } from './record-id.js';
import type { RecordRow } from './records.rows.js';
import type { DoiRegistrationQueue } from './records-publishing.service.js';
import type { RecordResult, RecordStore } from './records.shared.js';

/**
 * Deleting a published record, as InvenioRDM's administrators do it: the version's row stays,
 * marked deleted, with a tombstone that says why, by whom and when. Its identifiers then answer
 * 410 with the tombstone, search, sitemaps and `versions/latest` pass it by, OAI-PMH lists it as
 * deleted, and its files are no longer served; its parent, its other versions, communities and
 * requests are untouched. Restoring brings it back as it was.
 */
export class RecordDeletionService {
  constructor(
    private readonly store: RecordStore,
    private readonly vocabularies: VocabulariesService,
    private readonly doiQueue: DoiRegistrationQueue,
    /** Days after publication during which an owner may delete a version; 0: never. */
    private readonly ownerDeletionDays = 0,
  ) {}

  private get repo() {
    return this.store.repo;
  }

  /**
   * The record under its parent's lock, once the caller is known to be allowed: a stranger
   * learns nothing of the record but that it exists, as from any other route.
   */
  private async lockedRecord<T>(
    user: User | undefined,
    id: string,
    allowed: (row: RecordRow, user: User) => Promise<boolean>,
    fn: (row: RecordRow) => Promise<T>,
  ): Promise<T> {
    const found = isRecordId(id) ? await this.repo.getRecord(id) : undefined;
    if (!found) throw pidDoesNotExist();
    if (!user || !(user.isAdmin || (await allowed(found, user))))
      throw new AppError('PERMISSION_DENIED');
    return this.store.locked(found.parentId, async () => fn((await this.repo.getRecord(id))!));
  }

  /**
   * Administrators delete any record; its owner too while the version is young, where the
   * repository allows it (`CAIRN_OWNER_DELETION_DAYS`): a mistake caught in the first days is
   * undone without asking anyone, as InvenioRDM's immediate deletion allows.
   */
  private async mayDelete(row: RecordRow, user: User): Promise<boolean> {
    if (this.ownerDeletionDays <= 0) return false;
    const parent = await this.store.parentOf(row.parentId);
    const age = Date.now() - Date.parse(row.publishedAt);
    return parent.ownerId === user.id && age <= this.ownerDeletionDays * 86_400_000;
  }

  async delete(user: User | undefined, id: string, body: BodyReader<DeleteRecordBody>) {
    await this.lockedRecord(
      user,
      id,
      (row, u) => this.mayDelete(row, u),
      async (row) => {
        if (row.deletedAt) throw new AppError('RECORD_ALREADY_DELETED');
        const { removal_reason, note, citation_text, is_visible } = body();
        const reasons = await this.vocabularies.byId('removalreasons');
        if (!reasons.has(removal_reason.id))
          throw validationFailed([
            {
              field: 'removal_reason.id',
              messages: [`"${removal_reason.id}" is not a removal reason.`],
            },
          ]);
        const now = nowIso();
        const tombstone: Tombstone = {
          removal_reason: { id: removal_reason.id },
          note: note ?? '',
          removed_by: { user: String(user!.id) },
          removal_date: now,
          citation_text: citation_text ?? defaultCitation(row),
          is_visible,
        };
        await this.repo.markDeleted(row.id, JSON.stringify(tombstone), now);
        if (row.isLatest === 1) await this.passLatestOn(row.parentId);
        await this.reregister(row);
      },
    );
  }

  async restore(user: User | undefined, id: string): Promise<RecordResult> {
    return this.lockedRecord(
      user,
      id,
      () => Promise.resolve(false),
      async (row) => {
        if (!row.deletedAt) throw new AppError('RECORD_NOT_DELETED');
        await this.repo.markDeleted(row.id, null, nowIso());
        await this.passLatestOn(row.parentId);
        await this.reregister(row);
        const restored = (await this.repo.getRecord(id))!;
        return { row: restored, parent: await this.store.parentOf(row.parentId) };
      },
    );
  }

  /**
   * DataCite is told again of the version's DOI (hidden from its search while deleted, findable
   * once restored) and of the concept DOI, whose landing page and versions follow the versions
   * still standing.
   */
  private async reregister(row: RecordRow): Promise<void> {
    await this.repo.requeueDois([row.id, row.parentId]);
    await afterCommit(() => this.doiQueue.kick());
  }

  /** The newest version still standing is the latest (none, when every version is deleted). */
  private async passLatestOn(parentId: string): Promise<void> {
    const latest = await this.repo.latestRecord(parentId);
    if (latest) await this.repo.setLatest(parentId, latest.id);
    else await this.repo.clearLatest(parentId);
  }
}

/** "Creators (year): Title", what a tombstone cites when the administrator wrote nothing. */
function defaultCitation(row: RecordRow): string {
  const data = readJson<RecordData>(row.data);
  const m = data.metadata as {
    title?: string;
    publication_date?: string;
    creators?: Array<{ person_or_org?: { name?: string; family_name?: string } }>;
  };
  const names = (m.creators ?? [])
    .map((c) => c.person_or_org?.family_name || c.person_or_org?.name || '')
    .filter(Boolean);
  const who = names.length > 3 ? `${names[0]} et al.` : names.join(', ');
  const year = m.publication_date?.slice(0, 4);
  return `${who}${year ? ` (${year})` : ''}: ${m.title ?? ''}`.trim();
}
