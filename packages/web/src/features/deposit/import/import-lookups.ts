import type { MetadataFormValues } from '@cairn/shared';
import type { ApiClient } from '../../../api/client';
import type { ImportReview } from './import-merge';

/*
 * What the review needs to name what it shows: the answer and the form hold vocabulary entries
 * by id. Fetched once, when the answer arrives, with the app's client rather than the form's
 * vocabulary hooks: sharing those modules with the form would split them into chunks of their
 * own on the deposit page's first load.
 */

/** The vocabularies whose ids the review names. */
export type LabelledVocabulary =
  | 'resourcetypes'
  | 'languages'
  | 'licenses'
  | 'relationtypes'
  | 'datetypes'
  | 'creatorsroles'
  | 'contributorsroles';

/** A vocabulary id's label, or the id itself when it is unknown. */
export type ValueLabels = (vocabulary: LabelledVocabulary, id: string) => string;

type Lookup = (
  path: string,
  query?: Record<string, string>,
) => Promise<Record<string, unknown> | undefined>;

/** One GET per path, failures read as "unknown": a name or label missing is no reason to fail. */
function lookupWith(client: ApiClient): Lookup {
  const seen = new Map<string, Promise<Record<string, unknown> | undefined>>();
  return (path, query) => {
    const key = `${path}?${new URLSearchParams(query).toString()}`;
    let found = seen.get(key);
    if (!found) {
      found = client.get(path, query ? { query } : {}).then(
        (body) =>
          body !== null && typeof body === 'object' ? (body as Record<string, unknown>) : undefined,
        () => undefined,
      );
      seen.set(key, found);
    }
    return found;
  };
}

/**
 * Names the organisations and funders the import matched by id, in place: the answer carries
 * their ids alone, and the form shows an entry by the name it holds. A name not found stays empty
 * (the form shows the id then); saving sends the id either way.
 */
export async function fillNames(client: ApiClient, review: ImportReview): Promise<void> {
  const lookup = lookupWith(client);
  const named = (type: 'affiliations' | 'funders', id: string, fill: (name: string) => void) =>
    lookup(`/api/${type}/${encodeURIComponent(id)}`).then((item) => {
      if (typeof item?.['name'] === 'string') fill(item['name']);
    });
  const waits: Array<Promise<void>> = [];
  for (const { field, imported } of review.fields) {
    if (field === 'creators' || field === 'contributors') {
      for (const creator of imported as MetadataFormValues['creators']) {
        for (const affiliation of creator.affiliations) {
          if (affiliation.id && !affiliation.name) {
            waits.push(named('affiliations', affiliation.id, (name) => (affiliation.name = name)));
          }
        }
      }
    }
    if (field === 'funding') {
      for (const { funder } of imported as MetadataFormValues['funding']) {
        if (funder.id && !funder.name) {
          waits.push(named('funders', funder.id, (name) => (funder.name = name)));
        }
      }
    }
  }
  await Promise.all(waits);
}

/**
 * The labels of every vocabulary id the review shows, on both sides, in language `ln`; the
 * depositable resource types come with the page.
 */
export async function loadLabels(
  client: ApiClient,
  review: ImportReview,
  ln: string,
  resourceTypes: ReadonlyArray<{ id: string; title: string }>,
): Promise<ValueLabels> {
  const wanted = new Set<string>();
  const want = (vocabulary: LabelledVocabulary, id: string | undefined) => {
    if (id) wanted.add(`${vocabulary}/${id}`);
  };
  for (const { field, imported, current } of review.fields) {
    for (const value of [imported, current]) {
      const m = { [field]: value } as Partial<MetadataFormValues>;
      want('resourcetypes', m.resource_type);
      for (const id of m.languages ?? []) want('languages', id);
      for (const right of m.rights ?? []) if (!right.title) want('licenses', right.id);
      for (const date of m.dates ?? []) want('datetypes', date.type);
      for (const related of m.related_identifiers ?? [])
        want('relationtypes', related.relation_type);
      for (const creator of m.creators ?? []) want('creatorsroles', creator.role);
      for (const contributor of m.contributors ?? []) want('contributorsroles', contributor.role);
    }
  }
  const known = new Map<string, string>(
    resourceTypes.map((entry) => [`resourcetypes/${entry.id}`, entry.title]),
  );
  const lookup = lookupWith(client);
  await Promise.all(
    [...wanted]
      .filter((key) => !known.has(key))
      .map(async (key) => {
        const [vocabulary = '', id = ''] = key.split(/\/(.*)/s);
        const entry = await lookup(`/api/vocabularies/${vocabulary}/${encodeURIComponent(id)}`, {
          ln,
        });
        if (typeof entry?.['title_l10n'] === 'string') known.set(key, entry['title_l10n']);
      }),
  );
  return (vocabulary, id) => known.get(`${vocabulary}/${id}`) ?? id;
}
