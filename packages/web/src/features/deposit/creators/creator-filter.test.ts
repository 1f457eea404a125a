import type { CreatorFormValues } from '@cairn/shared';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type * as CreatorDisplay from './creator-display';
import { filterText, foldForSearch } from './creator-display';
import { matchingPositions, prepareFilterTexts } from './creator-filter';

// The real function, counted: prepared entries are not folded again.
vi.mock('./creator-display', async (importOriginal) => {
  const actual = await importOriginal<typeof CreatorDisplay>();
  return { ...actual, filterText: vi.fn(actual.filterText) };
});

function person(family: string, given: string, affiliation = ''): CreatorFormValues {
  return {
    person_or_org: {
      type: 'personal',
      family_name: family,
      given_name: given,
      name: '',
      identifiers: [],
    },
    role: '',
    affiliations: affiliation ? [{ name: affiliation }] : [],
  };
}

const list = [
  person('Müller', 'Jürgen'),
  person('Mulligan', 'Ann', 'Université de Genève'),
  person('Nakamura', 'Aiko', 'Muldoon Institute'),
  person('Lovelace', 'Ada'),
];

/** What a search over every entry finds, to compare the narrowed searches with. */
function everyMatch(entries: readonly CreatorFormValues[], typed: string): number[] {
  const needle = foldForSearch(typed);
  return entries.flatMap((creator, position) => {
    const text = foldForSearch(
      [
        `${creator.person_or_org.family_name}, ${creator.person_or_org.given_name}`,
        ...creator.affiliations.map((a) => a.name ?? ''),
      ].join(' '),
    );
    return text.includes(needle) ? [position] : [];
  });
}

describe('matchingPositions', () => {
  it('finds what a full search finds while the filter grows letter by letter and shrinks again', () => {
    const version = {};
    for (const typed of ['m', 'mu', 'mul', 'mull', 'mul', 'mu', 'geneve', 'xyz', 'a']) {
      expect(matchingPositions(list, foldForSearch(typed), version), typed).toEqual(
        everyMatch(list, typed),
      );
    }
  });

  it('searches the whole list again once the list has changed', () => {
    expect(matchingPositions(list, 'nak', {})).toEqual([2]);
    // A new first entry: a new version, so "naka" must not search the old matches only.
    const changed = [person('Nakano', 'Ken'), ...list.slice(1)];
    expect(matchingPositions(changed, 'naka', {})).toEqual([0, 2]);
  });
});

describe('prepareFilterTexts', () => {
  beforeEach(() => vi.mocked(filterText).mockClear());

  it('folds every entry in idle time, so that the first search folds none', async () => {
    const many = Array.from({ length: 2000 }, (_, i) => person(`Family${i}`, 'Given'));
    prepareFilterTexts(many);
    await vi.waitFor(() => expect(filterText).toHaveBeenCalledTimes(many.length));

    expect(matchingPositions(many, 'family1999', {})).toEqual([1999]);
    expect(filterText).toHaveBeenCalledTimes(many.length);
  });

  it('stops when asked', async () => {
    const many = Array.from({ length: 50_000 }, (_, i) => person(`Family${i}`, 'Given'));
    const stop = prepareFilterTexts(many);
    stop();
    const calls = vi.mocked(filterText).mock.calls.length;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(vi.mocked(filterText).mock.calls.length).toBe(calls);
  });
});
