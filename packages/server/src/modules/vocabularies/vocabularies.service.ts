import { AppError } from '../../errors.js';
import type { VocabulariesRepository, VocabularyEntry } from './vocabularies.repository.js';
import { vocabularyFixtures } from './fixtures/index.js';

/** Vocabularies whose ids Cairn checks on save; the others (subjects, affiliations…) arrive with issue 5. */
export const CHECKED_TYPES = new Set([
  'resourcetypes',
  'titletypes',
  'descriptiontypes',
  'datetypes',
  'relationtypes',
  'creatorsroles',
  'contributorsroles',
  'licenses',
  'languages',
]);

const CACHE_MS = 60_000;

/**
 * Looks vocabulary entries up by id. Entries are cached briefly per type: they change only by an
 * admin's hand, and every saved draft with 2,000 creators would otherwise cost a query per role.
 */
export class VocabulariesService {
  private readonly cache = new Map<string, { at: number; byId: Map<string, VocabularyEntry> }>();
  private snapshotCache?: { at: number; lookup: Promise<VocabularyLookup> };
  /** Rises whenever the snapshot is rebuilt, so rendered bodies can name the titles they used. */
  generation = 0;

  constructor(private readonly repo: VocabulariesRepository) {}

  /** Loads the shipped vocabularies into an empty table (first start). */
  async loadFixtures(): Promise<number> {
    if ((await this.repo.countAll()) > 0) return 0;
    const entries = vocabularyFixtures().map((f) => ({ ...f, tags: f.tags ?? [] }));
    await this.repo.insertMany(entries);
    return entries.length;
  }

  async byId(type: string): Promise<Map<string, VocabularyEntry>> {
    const hit = this.cache.get(type);
    if (hit && Date.now() - hit.at < CACHE_MS) return hit.byId;
    const byId = new Map((await this.repo.listType(type)).map((e) => [e.id, e]));
    this.cache.set(type, { at: Date.now(), byId });
    return byId;
  }

  /**
   * A synchronous lookup over every checked vocabulary, for presenters; one shared snapshot per
   * cache period, so reading a draft costs no vocabulary work at all.
   */
  snapshot(): Promise<VocabularyLookup> {
    const hit = this.snapshotCache;
    if (hit && Date.now() - hit.at < CACHE_MS) return hit.lookup;
    const lookup = (async () => {
      const maps = new Map<string, Map<string, VocabularyEntry>>();
      await Promise.all([...CHECKED_TYPES].map(async (t) => maps.set(t, await this.byId(t))));
      return (type: string, id: string) => maps.get(type)?.get(id);
    })();
    this.snapshotCache = { at: Date.now(), lookup };
    this.generation++;
    lookup.catch(() => {
      this.snapshotCache = undefined;
    });
    return lookup;
  }

  async get(type: string, id: string): Promise<VocabularyEntry | undefined> {
    return (await this.byId(type)).get(id);
  }

  async list(type: string): Promise<VocabularyEntry[]> {
    return [...(await this.byId(type)).values()];
  }

  /**
   * Throws 400 "Invalid value <id>." for the first reference to an unknown entry, as InvenioRDM's
   * relation check does (the whole save fails; nothing is stored).
   */
  async assertExist(refs: Array<{ type: string; id: string }>): Promise<void> {
    for (const ref of refs) {
      if (!CHECKED_TYPES.has(ref.type)) continue;
      if (!(await this.byId(ref.type)).has(ref.id)) {
        throw new AppError('INVALID_VOCABULARY_VALUE', `Invalid value ${ref.id}.`);
      }
    }
  }
}

/** A synchronous lookup over the checked vocabularies, for presenters. */
export type VocabularyLookup = (type: string, id: string) => VocabularyEntry | undefined;

export function vocabularySnapshot(service: VocabulariesService): Promise<VocabularyLookup> {
  return service.snapshot();
}
