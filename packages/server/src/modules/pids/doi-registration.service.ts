import type { Config } from '../../config.js';
import type { RecordData } from '@cairn/shared';
import { nowIso } from '../../database/database.js';
import { backoffDelay } from '../../lib/backoff.js';
import { readJson } from '../../database/schema.js';
import type { RecordsRepository } from '../records/records.repository.js';
import type { ParentData, PidRow } from '../records/records.rows.js';
import {
  indexedLookupFor,
  ownedJson,
  withVocabularyTitles,
} from '../records/records.vocabulary-titles.js';
import { type VocabulariesService } from '../vocabularies/vocabularies.service.js';
import { DataCiteClient, DataCiteError } from './datacite/datacite-client.js';
import { toDataCiteAttributes, type RecordForDataCite } from './datacite/datacite-serializer.js';

const MAX_BACKOFF_MS = 6 * 3600_000;

/**
 * Registers managed DOIs with DataCite after publication. Publishing only queues (pid status
 * 'publishing'); this service drains the queue right away and again from the periodic sweep,
 * backing off exponentially, so a DataCite outage never blocks or fails a publish.
 */
export class DoiRegistrationService {
  private readonly client?: DataCiteClient;
  private running?: Promise<number>;

  constructor(
    private readonly repo: RecordsRepository,
    private readonly vocabularies: VocabulariesService,
    private readonly config: Config,
    client?: DataCiteClient,
  ) {
    const dc = config.doi.datacite;
    this.client =
      client ??
      (dc
        ? new DataCiteClient({
            url: dc.url,
            username: dc.username,
            password: dc.password,
            prefix: config.doi.prefix,
          })
        : undefined);
  }

  /** Starts a drain unless one is running; errors are recorded on the PID, never thrown. */
  kick(): void {
    if (!this.client || this.running) return;
    this.running = this.drain().finally(() => {
      this.running = undefined;
    });
  }

  /** Waits for the drain in progress (tests and shutdown). */
  async idle(): Promise<void> {
    await this.running;
  }

  /** Registers every DOI that is due; returns how many succeeded. */
  async drain(): Promise<number> {
    if (!this.client) return 0;
    const due = await this.repo.pendingRegistrations(nowIso(), 100);
    if (due.length === 0) return 0;
    const vocab = await this.vocabularies.snapshot();
    let registered = 0;
    for (const pid of due) {
      // A concept DOI belongs to the parent: it is registered with the latest version's
      // metadata and landing page, and names every version with a DOI.
      const conceptOf = await this.repo.getParent(pid.recordId);
      const row = conceptOf
        ? await this.repo.latestRecord(conceptOf.id)
        : await this.repo.getRecord(pid.recordId);
      const parent = conceptOf ?? (row && (await this.repo.getParent(row.parentId)));
      // A deleted version's DOI, and a concept DOI whose versions are all deleted, still
      // resolve (to the tombstone) but leave DataCite's search: they are hidden, not updated.
      const hidden = !row || !parent || row.deletedAt !== null;
      if (hidden) {
        try {
          await this.client.hideDoi(pid.identifier);
          await this.markRegistered(pid);
          registered++;
        } catch (error) {
          await this.retryLater(pid, error);
        }
        continue;
      }
      // What DataCite is told of a record: its metadata with vocabulary titles, its PIDs and its
      // parent's, as the records API shows them.
      const data = ownedJson<RecordData>(row.data);
      const record: RecordForDataCite = {
        id: row.id,
        metadata: withVocabularyTitles(
          data,
          vocab,
          await indexedLookupFor([row], this.vocabularies),
        ) as unknown as RecordForDataCite['metadata'],
        pids: data.pids,
        parent: {
          id: parent.id,
          pids: readJson<ParentData>(parent.data).pids as RecordForDataCite['pids'],
        },
      };
      const pids = record.pids!;
      if (conceptOf) pids.doi = { identifier: pid.identifier };
      const doi = pids.doi?.identifier ?? pid.identifier;
      try {
        const attributes = toDataCiteAttributes(record, {
          publisherFallback: this.config.siteName,
          siteUrl: this.config.siteUrl,
          ...(conceptOf ? { versionDois: await this.versionDois(conceptOf.id) } : {}),
        });
        await this.client.registerDoi(doi, `${this.config.siteUrl}/records/${row.id}`, attributes);
        await this.markRegistered(pid);
        registered++;
      } catch (error) {
        await this.retryLater(pid, error);
      }
    }
    return registered;
  }

  /** DataCite holds what Cairn knows of the DOI: nothing is left to send. */
  private async markRegistered(pid: PidRow): Promise<void> {
    await this.repo.updatePid('doi', pid.identifier, {
      status: 'registered',
      registrationError: null,
      nextAttemptAt: null,
    });
  }

  /** Records why DataCite refused and when to ask again, backing off. */
  private async retryLater(pid: PidRow, error: unknown): Promise<void> {
    const attempts = pid.registrationAttempts + 1;
    const retryable = !(error instanceof DataCiteError) || error.retryable;
    // Non-retryable answers (bad metadata) still get retried, slowly, after an admin fixes the cause.
    const delay = backoffDelay(retryable ? 30_000 : 3600_000, attempts, MAX_BACKOFF_MS);
    await this.repo.updatePid('doi', pid.identifier, {
      registrationAttempts: attempts,
      registrationError: String(error instanceof Error ? error.message : error).slice(0, 2000),
      nextAttemptAt: new Date(Date.now() + delay).toISOString(),
    });
  }

  /** The DOIs of a parent's published versions, newest first, for the concept's HasVersion. */
  private async versionDois(parentId: string): Promise<string[]> {
    const dois: string[] = [];
    for (let offset = 0; ; offset += 500) {
      const { rows, total } = await this.repo.listVersions(parentId, offset, 500, true);
      for (const version of rows) {
        const doi = readJson<RecordData>(version.data).pids.doi;
        if (doi && doi.provider !== 'external') dois.push(doi.identifier);
      }
      if (offset + rows.length >= total || rows.length === 0) return dois;
    }
  }
}
