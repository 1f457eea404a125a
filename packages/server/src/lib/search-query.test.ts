import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEARCH_QUERY_MAX_LENGTH, SEARCH_QUERY_MAX_WORDS } from '@cairn/shared';
import { ENGINES } from '../test/databases.js';
import { createTestApp, type TestApp } from '../test/app.js';
import { expectValidationFailed } from '../test/assertions.js';
import { createCommunity, requestAs } from '../test/communities.js';
import { FilesApi, type Caller } from '../test/files.js';

// Search text from a hostile client on every route that takes `q` (or `suggest`): thousands of
// words, one huge word, operators of each engine's query language, LIKE wildcards. Each answers
// results or a 400 naming the limit, never a 500, on both engines.

const HOSTILE_QUERIES = [
  '!!!',
  '"',
  '"unbalanced',
  '""',
  "'",
  "''quoted''",
  'glacier AND NOT ice OR "x"',
  'a NEAR b',
  'NEAR(glacier ice, 2)',
  '*',
  'glac*',
  '* * *',
  '(',
  '(glacier',
  ')(',
  '\\',
  '\\\\',
  'glacier\\',
  '%',
  '_',
  '%_%',
  'a:*',
  'a & b | !c',
  '<->',
  '^glacier',
  '-',
  'col:value',
  '{}',
  '[',
  '0',
  '-1',
  '1e308',
  'ﷺ',
  '\u200b',
  'e\u0301',
  '👩‍🔬',
  'ǅ',
  `${'glacier '.repeat(SEARCH_QUERY_MAX_WORDS - 1)}glacier`,
  'g'.repeat(SEARCH_QUERY_MAX_LENGTH),
];

const TOO_MANY_WORDS = `Must hold at most ${SEARCH_QUERY_MAX_WORDS} words.`;
const TOO_LONG = `Longer than maximum length ${SEARCH_QUERY_MAX_LENGTH}.`;

describe.each(ENGINES)('hostile search text on every search route (%s)', (engine) => {
  let t: TestApp;
  let owner: Caller;
  let routes: string[];

  beforeAll(async () => {
    t = await createTestApp(engine);
    owner = await t.user('owner@example.org', { admin: true });
    const files = new FilesApi(t, owner);
    const id = await files.publishedRecord('Glacier ice cores');
    const community = await createCommunity(t, owner, 'glaciers', {});
    routes = [
      '/api/records',
      '/api/user/records',
      `/api/records/${id}/versions`,
      '/api/communities',
      '/api/user/communities',
      `/api/communities/${community}/records`,
      `/api/communities/${community}/requests`,
      `/api/communities/${community}/members`,
      `/api/communities/${community}/members/public`,
      `/api/records/${id}/communities`,
      `/api/records/${id}/communities-suggestions`,
      `/api/records/${id}/requests`,
      '/api/requests',
      '/api/user/requests',
      '/api/vocabularies/languages',
      '/api/vocabularies/licenses',
      '/api/vocabularies/resourcetypes',
      '/api/names',
      '/api/affiliations',
      '/api/funders',
      '/api/awards',
      '/api/subjects',
    ];
  });
  afterAll(() => t?.close());

  const search = (route: string, param: string, text: string) =>
    requestAs(t, 'GET', `${route}?${param}=${encodeURIComponent(text)}`, owner);

  it('answers results for operators, quotes, wildcards and odd Unicode', async () => {
    for (const route of routes) {
      for (const q of HOSTILE_QUERIES) {
        const res = await search(route, 'q', q);
        // The records searches, the caller's uploads too, read the query syntax: what it cannot
        // parse is a 400 saying where.
        if (res.statusCode === 400 && route.endsWith('/records')) {
          expect(res.json().message, `${route} q=${q}`).toMatch(
            /^Invalid query string syntax\. .+ at character \d+/,
          );
          continue;
        }
        expect(res.statusCode, `${route} q=${q}: ${res.body}`).toBe(200);
        expect(res.json().hits, `${route} q=${q}`).toMatchObject({ total: expect.any(Number) });
      }
    }
  });

  it(`refuses more than ${SEARCH_QUERY_MAX_WORDS} words or a thousand (400 naming q)`, async () => {
    const refused: Array<[string, string]> = [
      [`${'glacier '.repeat(SEARCH_QUERY_MAX_WORDS)}glacier`, TOO_MANY_WORDS],
      ['a-'.repeat(SEARCH_QUERY_MAX_WORDS) + 'a', TOO_MANY_WORDS],
      // "½" is "1⁄2" once NFKC-normalised: 32 of them are 33 words.
      ['\u00bd'.repeat(SEARCH_QUERY_MAX_WORDS), TOO_MANY_WORDS],
      // The tester's thousand words, which SQLite answered with "Expression tree is too large".
      [Array.from({ length: 1000 }, (_, i) => `w${i}`).join(' '), TOO_LONG],
    ];
    for (const route of routes) {
      for (const [q, message] of refused) {
        expectValidationFailed(await search(route, 'q', q), [{ field: 'q', messages: [message] }]);
      }
    }
  });

  it(`refuses more than ${SEARCH_QUERY_MAX_LENGTH} characters (400 naming q or suggest)`, async () => {
    const long = ['x'.repeat(SEARCH_QUERY_MAX_LENGTH + 1), 'x'.repeat(100_000)];
    for (const route of routes) {
      for (const q of long) {
        expectValidationFailed(await search(route, 'q', q), [{ field: 'q', messages: [TOO_LONG] }]);
      }
    }
    // A character NFKC spells with many (U+FDFA is 18) counts as what the engines search.
    expectValidationFailed(await search('/api/records', 'q', 'ﷺ'.repeat(30)), [
      { field: 'q', messages: [TOO_LONG] },
    ]);
    for (const route of ['/api/names', '/api/vocabularies/languages']) {
      expectValidationFailed(await search(route, 'suggest', 'y'.repeat(5000)), [
        { field: 'suggest', messages: [TOO_LONG] },
      ]);
    }
  });
});
