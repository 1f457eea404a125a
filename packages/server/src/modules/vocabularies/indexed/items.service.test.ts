import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../../database/migrate.js';
import { createTestDatabase, ENGINES, type TestDatabase } from '../../../test/databases.js';
import { normaliseSearchText, searchTokens } from '../search-text.js';
import { VocabularyItemsRepository } from './items.repository.js';
import { VocabularyItemsService } from './items.service.js';
import { itemSearchQuery } from '../suggest-params.js';

// Names that share prefixes every which way ("ma" starts a given name, a family name and part of
// a double-barrelled one), so that the words of a query range from rare to common.
const GIVEN = ['Anna', 'Anne', 'Jan', 'Jana', 'Ma', 'Mara', 'Jo', 'Józef', 'Éva', 'Li'];
const FAMILY = ['Müller', 'Mulder', 'Ma', 'Li', 'Lindqvist', 'Jansen', 'Annaberg', 'Évora-Ma'];
const PEOPLE = Array.from({ length: 240 }, (_, i) => ({
  id: `p${i}`,
  given_name: GIVEN[i % GIVEN.length]!,
  family_name: FAMILY[(i * 7 + Math.floor(i / GIVEN.length)) % FAMILY.length]!,
}));

const QUERIES = [
  'anna m',
  'anna mul',
  'Müller Anna',
  'ma',
  'ma ma',
  'ma j',
  'j ma',
  'li mu',
  'm a',
  'an ma li',
  'eva evora',
  'jan jansen',
  'jo li',
  'lindqvist',
  'zz a',
  'a zz',
];

/** What every query means, worked out here from the names alone: every word starts a word. */
function expected(query: string): Set<string> {
  const words = searchTokens(normaliseSearchText(query));
  return new Set(
    PEOPLE.filter((p) => {
      const own = searchTokens(normaliseSearchText(`${p.given_name} ${p.family_name}`));
      return words.every((w) => own.some((o) => o.startsWith(w)));
    }).map((p) => p.id),
  );
}

describe.each(ENGINES)('suggestions of several words on %s', (engine) => {
  let database: TestDatabase;
  // However far the words' ranges are measured (planWords), and so whichever word drives and
  // however the others are tested, the answers are the same: up to 1 row (the shortest word
  // drives), 40 (some), all of them, and with the items' text tested for the other words.
  let services: Array<[string, VocabularyItemsService]>;

  beforeAll(async () => {
    database = await createTestDatabase(engine);
    const { db } = database.handle;
    await migrateToLatest(
      db,
      database.config.kind === 'postgres' ? database.config.schema : undefined,
    );
    const repo = new VocabularyItemsRepository(db, engine);
    services = [
      ['ranges measured up to 1 row', new VocabularyItemsService(repo, { commonWordRows: 1 })],
      ['up to 40 rows', new VocabularyItemsService(repo, { commonWordRows: 40 })],
      ['in full', new VocabularyItemsService(repo)],
      // A one-letter word always reaches a cap of 1: the rarest word's items' text is tested.
      [
        'testing the text for a common initial',
        new VocabularyItemsService(repo, { commonWordRows: 1, rareWordRows: 1_000_000 }),
      ],
    ];
    const writer = services[2]![1];
    await writer.write(
      'names',
      PEOPLE.map((p) => writer.validate('names', p)),
    );
  });
  afterAll(() => database.drop());

  const search = async (service: VocabularyItemsService, query: Record<string, string>) => {
    // Read as the route reads the query string.
    const hits = await service.search('names', itemSearchQuery('names').parse(query));
    return { ids: hits.items.map((i) => i.id), total: hits.total };
  };

  it('finds exactly the names where every word starts a word, in any order', async () => {
    for (const [label, service] of services) {
      for (const q of QUERIES) {
        const all = await search(service, { suggest: q, size: '1000' });
        expect(new Set(all.ids), `${label}: ${q}`).toEqual(expected(q));
        expect(all.ids.length, `${label}: ${q}`).toBe(new Set(all.ids).size);
        expect(all.total, `${label}: ${q}`).toBe(all.ids.length);
      }
    }
  });

  it('counts every match once, also those found first by their whole name', async () => {
    // "Anna Müller" exactly is a whole-label match and a word match: a page of one must not
    // count the exact ones the page leaves out a second time.
    for (const [label, service] of services) {
      for (const q of QUERIES) {
        const one = await search(service, { suggest: q, size: '1' });
        expect(one.total, `${label}: ${q}`).toBe(expected(q).size);
      }
    }
  });

  it('ranks whole names typed, then names starting so, then word matches, and pages through them', async () => {
    const text = normaliseSearchText('Ma Anna');
    // 0: a whole label typed ("Anna Ma" as family and given), 1: a label starting so ("Ma
    // Annaberg"), 2: words only ("Mara Annaberg").
    const tier = (id: string) => {
      const p = PEOPLE.find((person) => person.id === id)!;
      const labels = [`${p.given_name} ${p.family_name}`, `${p.family_name} ${p.given_name}`].map(
        normaliseSearchText,
      );
      return labels.includes(text) ? 0 : labels.some((l) => l.startsWith(text)) ? 1 : 2;
    };
    for (const [label, service] of services) {
      const all = (await search(service, { suggest: 'Ma Anna', size: '1000' })).ids;
      const tiers = all.map(tier);
      expect(tiers, label).toEqual([...tiers].sort());
      expect(new Set(tiers), label).toEqual(new Set([0, 1, 2]));
      const pages: string[] = [];
      for (let page = 1; (page - 1) * 4 < all.length; page++) {
        const query = { suggest: 'Ma Anna', size: '4', page: String(page) };
        pages.push(...(await search(service, query)).ids);
      }
      expect(pages, label).toEqual(all);
    }
  });

  it('sorts the matches of several words by name when asked', async () => {
    for (const [label, service] of services) {
      const sorted = await search(service, { q: 'ma j', sort: 'name', size: '1000' });
      expect(new Set(sorted.ids), label).toEqual(expected('ma j'));
      expect(sorted.total, label).toBe(expected('ma j').size);
    }
  });
});
