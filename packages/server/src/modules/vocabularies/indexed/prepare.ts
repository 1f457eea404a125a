import type { ErrorItem } from '@cairn/shared';
import { AppError } from '../../../errors.js';
import { zodErrorItems } from '../../../lib/zod-errors.js';
import type { PreparedItem } from './items.writes.js';
import { INDEXED_KINDS, type IndexedItem, type IndexedKind, type IndexedType } from './kinds.js';

/**
 * What it takes to turn input into rows, without a database: validation, references resolved
 * through a lookup the caller provides, and the search terms. An import runs this on a worker
 * thread (see import/pipeline.ts), an admin's write on the event loop.
 */

/** Longest whole-label term; a label is found by its beginning, and a longer one costs index space. */
export const MAX_LABEL_TERM = 200;

/** The display names of the items among `ids` that exist (referenced by other vocabularies). */
export type ReferenceNames = (
  type: IndexedType,
  ids: readonly string[],
) => Promise<Map<string, string>>;

/** The vocabulary each type refers to by id: an award's funder, a person's affiliations. */
export const REFERENCED: Partial<Record<IndexedType, IndexedType>> = {
  awards: 'funders',
  names: 'affiliations',
};

/** Validates an admin's or an importer's item; throws VALIDATION_FAILED with every problem. */
export function validateItem(type: IndexedType, input: unknown): IndexedItem {
  const kind = INDEXED_KINDS[type];
  const parsed = kind.schema.safeParse(input);
  if (!parsed.success)
    throw new AppError('VALIDATION_FAILED', undefined, zodErrorItems(parsed.error));
  return kind.complete(parsed.data);
}

/** Search terms of one item: words, whole labels ('='), identifiers ('#'). */
export function prepareItem(kind: IndexedKind, item: IndexedItem): PreparedItem {
  const index = kind.index(item);
  const words = new Set<string>();
  for (const text of index.words) {
    for (const word of text.split(' ')) if (word !== '') words.add(word);
  }
  const extra = new Set<string>();
  for (const label of index.labels) extra.add(`=${label.slice(0, MAX_LABEL_TERM)}`);
  for (const identifier of index.identifiers) if (identifier !== '') extra.add(`#${identifier}`);
  return {
    id: item.id,
    data: JSON.stringify(item),
    sortKey: index.sortKey,
    searchText: ` ${[...words].join(' ')} `,
    extraTerms: [...extra].join('\n'),
    facet: index.facet,
    tags: index.tags.length > 0 ? ` ${index.tags.join(' ')} ` : '',
    terms: JSON.stringify([...words, ...extra]),
  };
}

/**
 * Awards name their funder and people their affiliations by id: each id must exist, and the
 * stored item carries its current name, so that a suggestion shows it without a lookup. A type
 * only ever refers to another type, never to its own: an import can look names up outside its
 * own transaction.
 */
export async function resolveReferences(
  type: IndexedType,
  items: readonly IndexedItem[],
  namesOf: ReferenceNames,
): Promise<Array<{ item: IndexedItem } | { problems: ErrorItem[] }>> {
  if (type === 'awards') {
    const funders = await namesOf(
      'funders',
      items.map((i) => (i.funder as { id: string }).id),
    );
    return items.map((i) => {
      const { id } = i.funder as { id: string };
      const name = funders.get(id);
      if (name === undefined)
        return { problems: [{ field: 'funder.id', messages: [`Unknown funder ${id}.`] }] };
      return { item: { ...i, funder: { id, name } } };
    });
  }
  if (type === 'names') {
    type Ref = { id?: string; name?: string };
    const refs = (i: IndexedItem) => (i.affiliations ?? []) as Ref[];
    const affiliations = await namesOf(
      'affiliations',
      items.flatMap((i) => refs(i).flatMap((a) => (a.id ? [a.id] : []))),
    );
    return items.map((i) => {
      const problems: ErrorItem[] = [];
      const resolved = refs(i).map((a, n) => {
        if (!a.id) return a;
        const name = affiliations.get(a.id);
        if (name === undefined) {
          problems.push({
            field: `affiliations.${n}.id`,
            messages: [`Unknown affiliation ${a.id}.`],
          });
          return a;
        }
        return { id: a.id, name };
      });
      if (problems.length > 0) return { problems };
      return { item: refs(i).length > 0 ? { ...i, affiliations: resolved } : i };
    });
  }
  return items.map((item) => ({ item }));
}
