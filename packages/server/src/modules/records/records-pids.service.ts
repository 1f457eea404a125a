import {
  doiTransitionAfter,
  keepsDoiTransition,
  normalizeDoi,
  type DoiTransition,
  type FieldError,
  type RecordData,
} from '@cairn/shared';
import type { Config } from '../../config.js';
import { AppError, pidDoesNotExist } from '../../errors.js';
import { nowIso } from '../../database/database.js';
import { readJson } from '../../database/schema.js';
import type { User } from '../users/users.service.js';
import type { RecordsRepository } from './records.repository.js';
import type { DraftRow, ParentData, PidRow } from './records.rows.js';
import { oaiIdentifier } from './record-id.js';
import {
  revisionMismatch,
  type DraftResult,
  type LinkGrant,
  type LoadedDraft,
  type RecordStore,
} from './records.shared.js';

/**
 * The persistent identifiers of drafts and records: reserving and discarding a managed DOI,
 * checking the DOI a draft is saved or published with, minting at publish, and the concept DOI
 * that stands for every version of a parent.
 */
export class RecordPidsService {
  private readonly repo: RecordsRepository;

  constructor(
    private readonly store: RecordStore,
    private readonly config: Config,
  ) {
    this.repo = store.repo;
  }

  /** Who manages the DOIs under this site's prefix: DataCite when configured, else the site. */
  get managedProvider(): string {
    return this.config.doi.datacite ? 'datacite' : 'local';
  }

  /** `doi:… already exists.` when another record holds the DOI. */
  private async duplicateDoi(identifier: string, recordId: string): Promise<FieldError[]> {
    const existing = await this.repo.findPid('doi', identifier);
    return existing && existing.recordId !== recordId
      ? [{ field: 'pids.doi', messages: [`doi:${identifier} already exists.`] }]
      : [];
  }

  /**
   * The DOI of a draft being saved: an external one is normalised, must be unique and not under
   * our own prefix; a managed one can only be the one the reserve action gave. What is refused
   * is dropped from `data` and reported; the OAI identifier is kept from `previous`.
   */
  async checkDraftPids(
    data: RecordData,
    draftId: string,
    previous: RecordData | undefined,
  ): Promise<FieldError[]> {
    const errors: FieldError[] = [];
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
            const duplicate = await this.duplicateDoi(normalized, draftId);
            if (duplicate.length > 0) {
              errors.push(...duplicate);
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
    return errors;
  }

  /**
   * The DOI reasons a draft cannot be published: a new version must keep to the kind of DOI the
   * version before had, and an external DOI must be given and unique.
   */
  async publishErrors(row: DraftRow, data: RecordData): Promise<FieldError[]> {
    const errors: FieldError[] = [];
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
      else errors.push(...(await this.duplicateDoi(doi.identifier, row.id)));
    }
    return errors;
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
   * The PIDs of a draft as it is published, inside the publish transaction (`trx`): restricted
   * records get no automatic DOI and lose a reserved one, a required DOI is minted, a replaced
   * external DOI is released and the new one recorded, a managed one is queued for registration
   * (or registered at once without DataCite), and the OAI identifier is set. Changes `data`.
   */
  async publishPids(
    trx: RecordsRepository,
    id: string,
    data: RecordData,
    pids: PidRow[],
  ): Promise<void> {
    const restricted = data.access.record === 'restricted';
    const managed = data.pids.doi && data.pids.doi.provider !== 'external';
    if (managed && restricted) {
      const reserved = pids.find((p) => p.scheme === 'doi' && p.status === 'new');
      if (reserved) {
        await trx.deletePid('doi', reserved.identifier);
        delete data.pids.doi;
      }
    }
    if (!data.pids.doi && this.config.doi.required && !restricted) {
      await this.mintManagedDoi(trx, id, data);
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
    data.pids.oai = { identifier: oaiIdentifier(this.config.siteUrl, id), provider: 'oai' };
  }

  /**
   * The concept DOI (`parent.pids.doi`, `{prefix}/{parent id}`), which stands for every version:
   * minted when the parent's first version with a managed DOI is published, and queued for
   * registration again at each later one, so that DataCite's record of it points to the latest
   * version and lists every version. Returns whether `parentData` changed.
   */
  async keepConceptDoi(
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
   * POST …/draft/pids/doi: reserves a managed DOI for the draft (201), once: a second call, also a
   * parallel one, finds it reserved (400).
   */
  async reservePid(
    user: User | undefined,
    id: string,
    scheme: string,
    link?: LinkGrant,
  ): Promise<DraftResult> {
    if (scheme !== 'doi') throw pidDoesNotExist();
    return this.store.lockedDraft(
      user,
      id,
      'review',
      (loaded) => this.reserveLoaded(loaded, id, user),
      link,
    );
  }

  private async reserveLoaded(
    loaded: LoadedDraft,
    id: string,
    user: User | undefined,
  ): Promise<DraftResult> {
    const data = readJson<RecordData>(loaded.row.data);
    if (data.pids.doi) {
      throw new AppError('PID_ALREADY_EXISTS', undefined, [
        { field: 'pids.doi', messages: ['A PID already exists for type doi'] },
      ]);
    }
    return this.writePids(loaded, data, user, (trx) => this.mintManagedDoi(trx, id, data));
  }

  /**
   * Gives draft `id` its managed DOI, `{prefix}/{id}`, in `data`, and records it as not yet
   * registered (status `new`) inside `trx`, where it is not recorded already: what reserving
   * does, and publishing where DOIs are required and the draft has none.
   */
  private async mintManagedDoi(
    trx: RecordsRepository,
    id: string,
    data: RecordData,
  ): Promise<void> {
    const identifier = `${this.config.doi.prefix}/${id}`;
    data.pids.doi = { identifier, provider: this.managedProvider, client: this.managedProvider };
    if (await trx.findPid('doi', identifier)) return;
    await trx.insertPid({
      scheme: 'doi',
      identifier,
      recordId: id,
      provider: this.managedProvider,
      status: 'new',
    });
  }

  /** DELETE …/draft/pids/doi: discards the draft's DOI (200 with the draft); 404 when none. */
  async discardPid(
    user: User | undefined,
    id: string,
    scheme: string,
    link?: LinkGrant,
  ): Promise<DraftResult> {
    if (scheme !== 'doi') throw pidDoesNotExist();
    return this.store.lockedDraft(
      user,
      id,
      'review',
      (loaded) => this.discardPidLoaded(loaded, user),
      link,
    );
  }

  private async discardPidLoaded(
    loaded: LoadedDraft,
    user: User | undefined,
  ): Promise<DraftResult> {
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
    return this.writePids(loaded, data, user, async (trx) => {
      if (pid) await trx.deletePid('doi', pid.identifier);
    });
  }

  /** Saves the draft with `data` as `change` (which may still change it) leaves it, in one transaction. */
  private async writePids(
    loaded: LoadedDraft,
    data: RecordData,
    user: User | undefined,
    change: (trx: RecordsRepository) => Promise<void>,
  ): Promise<DraftResult> {
    const { row, parent } = loaded;
    const set = await this.repo.transaction(async (trx) => {
      await change(trx);
      const set = {
        data: JSON.stringify(data),
        updatedAt: nowIso(),
        title: row.title,
        searchText: row.searchText,
        updatedBy: user?.id ?? null,
      };
      // Someone saved since the draft was read: the 412 names the revision they left.
      if (!(await trx.updateDraft(row, set))) throw await revisionMismatch(trx, row);
      return set;
    });
    return this.store.draftResult(
      { ...row, ...set, revisionId: row.revisionId + 1 },
      parent,
      [],
      loaded,
    );
  }
}
