import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SEARCH_QUERY_MAX_LENGTH, SEARCH_QUERY_MAX_WORDS } from '../limits.js';
import {
  formatSearchQuery,
  parseSearchQuery,
  SearchQueryError,
  type SearchFields,
  type SearchQuery,
} from './query.js';

const FIELDS: SearchFields = {
  'metadata.title': 'text',
  'metadata.description': 'text',
  'metadata.creators.person_or_org.family_name': 'text',
  'metadata.resource_type.id': 'keyword',
  'parent.communities.ids': 'keyword',
  'pids.doi.identifier': 'keyword',
  'metadata.publication_date': 'date',
  'files.count': 'number',
};

const parse = (q: string) => parseSearchQuery(q, FIELDS);

const term = (text: string, field?: string, prefix?: true): SearchQuery => ({
  kind: 'term',
  ...(field === undefined ? {} : { field }),
  text,
  ...(prefix ? { prefix } : {}),
});
const phrase = (text: string, field?: string): SearchQuery => ({
  kind: 'phrase',
  ...(field === undefined ? {} : { field }),
  text,
});
const and = (...children: SearchQuery[]): SearchQuery => ({ kind: 'and', children });
const or = (...children: SearchQuery[]): SearchQuery => ({ kind: 'or', children });
const not = (child: SearchQuery): SearchQuery => ({ kind: 'not', child });

/** The error a query is refused with. */
function refusal(q: string): SearchQueryError {
  try {
    parse(q);
  } catch (error) {
    if (error instanceof SearchQueryError) return error;
    throw error;
  }
  throw new Error(`${q} was accepted`);
}

describe('parseSearchQuery', () => {
  it.each(['', '   ', '*', ' *:* '])('reads %j as everything (null)', (q) => {
    expect(parse(q)).toBeNull();
  });

  it('reads words with AND between them, as InvenioRDM does', () => {
    expect(parse('glacier')).toEqual(term('glacier'));
    expect(parse('glacier  ice\tsheet')).toEqual(and(term('glacier'), term('ice'), term('sheet')));
    expect(parse('ice-sheet 10.1234/x')).toEqual(and(term('ice-sheet'), term('10.1234/x')));
  });

  it('reads quoted phrases, with \\" and \\\\ inside', () => {
    expect(parse('"ice sheet" glacier')).toEqual(and(phrase('ice sheet'), term('glacier')));
    expect(parse('"say \\"hi\\" \\\\ (now) AND: *"')).toEqual(phrase('say "hi" \\ (now) AND: *'));
  });

  it.each([
    ['metadata.title:glacier', term('glacier', 'metadata.title')],
    ['metadata.title:"ice sheet"', phrase('ice sheet', 'metadata.title')],
    [
      'metadata.creators.person_or_org.family_name:Müller',
      term('Müller', 'metadata.creators.person_or_org.family_name'),
    ],
    ['metadata.resource_type.id:dataset', term('dataset', 'metadata.resource_type.id')],
    ['parent.communities.ids:abc', term('abc', 'parent.communities.ids')],
    ['pids.doi.identifier:"10.1234/x"', phrase('10.1234/x', 'pids.doi.identifier')],
    ['pids.doi.identifier:10.1234\\:x', term('10.1234:x', 'pids.doi.identifier')],
    ['metadata.title: glacier', term('glacier', 'metadata.title')],
  ])('reads the field query %s', (q, tree) => {
    expect(parse(q)).toEqual(tree);
  });

  it('gives a field before a group to everything inside it', () => {
    expect(parse('metadata.title:(a OR b)')).toEqual(
      or(term('a', 'metadata.title'), term('b', 'metadata.title')),
    );
    expect(parse('metadata.title:(ice -"sea ice" glaci*)')).toEqual(
      and(
        term('ice', 'metadata.title'),
        not(phrase('sea ice', 'metadata.title')),
        term('glaci', 'metadata.title', true),
      ),
    );
    expect(parse('metadata.publication_date:([2019 TO 2020] OR [* TO 1990})')).toEqual(
      or(
        {
          kind: 'range',
          field: 'metadata.publication_date',
          from: '2019',
          to: '2020',
          inclusiveFrom: true,
          inclusiveTo: true,
        },
        {
          kind: 'range',
          field: 'metadata.publication_date',
          to: '1990',
          inclusiveFrom: true,
          inclusiveTo: false,
        },
      ),
    );
  });

  it.each([
    ['[2019 TO 2021]', { from: '2019', to: '2021', inclusiveFrom: true, inclusiveTo: true }],
    ['{2019 TO 2021}', { from: '2019', to: '2021', inclusiveFrom: false, inclusiveTo: false }],
    [
      '[2019-01 TO 2021-06-30}',
      { from: '2019-01', to: '2021-06-30', inclusiveFrom: true, inclusiveTo: false },
    ],
    ['[2019 TO *]', { from: '2019', inclusiveFrom: true, inclusiveTo: true }],
    ['{* TO 2021]', { to: '2021', inclusiveFrom: false, inclusiveTo: true }],
    ['[* TO *]', { inclusiveFrom: true, inclusiveTo: true }],
    ['["2019" TO "2021"]', { from: '2019', to: '2021', inclusiveFrom: true, inclusiveTo: true }],
  ])('reads the date range %s', (range, expected) => {
    expect(parse(`metadata.publication_date:${range}`)).toEqual({
      kind: 'range',
      field: 'metadata.publication_date',
      ...expected,
    });
  });

  it('reads a number range, a negative end quoted', () => {
    expect(parse('files.count:["-1" TO 2.5]')).toEqual({
      kind: 'range',
      field: 'files.count',
      from: '-1',
      to: '2.5',
      inclusiveFrom: true,
      inclusiveTo: true,
    });
  });

  it.each([
    ['a AND b', and(term('a'), term('b'))],
    ['a && b', and(term('a'), term('b'))],
    ['a OR b', or(term('a'), term('b'))],
    ['a || b', or(term('a'), term('b'))],
    ['NOT a', not(term('a'))],
    ['!a', not(term('a'))],
    ['-a', not(term('a'))],
    ['+a', term('a')],
    ['a -b +c', and(term('a'), not(term('b')), term('c'))],
    ['-metadata.title:a', not(term('a', 'metadata.title'))],
    ['-(a OR b)', not(or(term('a'), term('b')))],
    ['NOT NOT a', not(not(term('a')))],
    ['a NOT b', and(term('a'), not(term('b')))],
    ['a AND -b', and(term('a'), not(term('b')))],
    ['a OR !(b c)', or(term('a'), not(and(term('b'), term('c'))))],
    ['and or not to', and(term('and'), term('or'), term('not'), term('to'))],
    ['\\AND \\-a', and(term('AND'), term('-a'))],
    ['glaci*', term('glaci', undefined, true)],
    ['glaci\\*', term('glaci*')],
    ['a&&b wow!', and(term('a&&b'), term('wow!'))],
  ])('reads the operators of %s', (q, tree) => {
    expect(parse(q)).toEqual(tree);
  });

  it.each([
    ['a b OR c', or(and(term('a'), term('b')), term('c'))],
    ['a OR b c', or(term('a'), and(term('b'), term('c')))],
    ['a OR b AND c', or(term('a'), and(term('b'), term('c')))],
    ['NOT a AND b', and(not(term('a')), term('b'))],
    ['NOT a OR b', or(not(term('a')), term('b'))],
    ['a OR NOT b c', or(term('a'), and(not(term('b')), term('c')))],
    ['(a OR b) c', and(or(term('a'), term('b')), term('c'))],
    ['a AND (b AND c)', and(term('a'), and(term('b'), term('c')))],
    ['((a))', term('a')],
    ['a OR b OR c', or(term('a'), term('b'), term('c'))],
  ])('binds NOT before AND before OR: %s', (q, tree) => {
    expect(parse(q)).toEqual(tree);
  });

  it('reads accents, CJK and scripts without spaces between words', () => {
    expect(parse('Müller Ångström')).toEqual(and(term('Müller'), term('Ångström')));
    expect(parse('metadata.title:氷河 "東京 大学"')).toEqual(
      and(term('氷河', 'metadata.title'), phrase('東京 大学')),
    );
    expect(parse('Ελληνικά OR русский')).toEqual(or(term('Ελληνικά'), term('русский')));
  });

  it('normalises to NFKC first: full-width forms are operators, ligatures are letters', () => {
    expect(parse('ｍｅｔａｄａｔａ．ｔｉｔｌｅ：（ａ　ＯＲ　ｂ）')).toEqual(
      or(term('a', 'metadata.title'), term('b', 'metadata.title')),
    );
    expect(parse('ﬁeld')).toEqual(term('field'));
    // A decomposed é is the composed one.
    expect(parse('Mu\u0308ller')).toEqual(term('Müller'));
  });

  it.each([
    ['(a OR b', 1, 'Unbalanced parenthesis at character 1: no ) closes it.'],
    ['a (b (c) d', 3, 'Unbalanced parenthesis at character 3: no ) closes it.'],
    ['a OR b) c', 7, 'Unbalanced parenthesis at character 7: no ( opens it.'],
    [') a', 1, 'Unbalanced parenthesis at character 1: no ( opens it.'],
    ['a OR )', 6, 'Unbalanced parenthesis at character 6: no ( opens it.'],
    ['(a OR )', 7, 'Unexpected ) at character 7: expected a word, a phrase or (.'],
    ['metadata.title:(a))', 19, 'Unbalanced parenthesis at character 19: no ( opens it.'],
    ['a ()', 4, 'Unexpected ) at character 4: expected a word, a phrase or (.'],
  ])('refuses unbalanced parentheses: %s', (q, position, message) => {
    const error = refusal(q);
    expect(error).toMatchObject({ position, message });
    expect(error.reason).toMatch(/parenthesis|unexpected/);
  });

  it.each([
    ['a "ice sheet', 3, 'Unbalanced quote at character 3: no " closes it.'],
    ['"a\\"', 1, 'Unbalanced quote at character 1: no " closes it.'],
    ['a ""', 3, 'Empty phrase at character 3: write words between the quotes.'],
  ])('refuses unbalanced quotes: %s', (q, position, message) => {
    expect(refusal(q)).toMatchObject({ position, message });
  });

  it.each([
    [
      'metadata.publication_date:[2019 TO]',
      35,
      'Unexpected ] at character 35: expected the end of the range after TO.',
    ],
    [
      'metadata.publication_date:[2019 TO 2021',
      27,
      'Unclosed range at character 27: expected ] or } to close it.',
    ],
    [
      'metadata.publication_date:[2019]',
      32,
      'Unexpected ] at character 32: expected TO between the ends of the range.',
    ],
    [
      'metadata.publication_date:[TO 2019]',
      28,
      'Unexpected TO at character 28: expected the start of the range.',
    ],
    [
      'metadata.publication_date:[2019 TO june]',
      36,
      'Not a date (june) at character 36: expected YYYY, YYYY-MM or YYYY-MM-DD, or * for an open end.',
    ],
    [
      'files.count:[1 TO 2019-01]',
      19,
      'Not a number (2019-01) at character 19: expected a number, or * for an open end.',
    ],
    [
      'metadata.title:[a TO b]',
      16,
      'Range on metadata.title, a text field at character 16: ranges work on date and number fields only.',
    ],
    [
      'metadata.resource_type.id:[a TO b]',
      27,
      'Range on metadata.resource_type.id, a keyword field at character 27: ranges work on date and number fields only.',
    ],
    [
      'a [2019 TO 2020]',
      3,
      'A range needs a field at character 3: write it as field:[from TO to], e.g. metadata.publication_date:[2019 TO 2021].',
    ],
  ])('refuses the range %s', (q, position, message) => {
    expect(refusal(q)).toMatchObject({ position, message });
  });

  it.each([
    [
      'metadata.title:',
      16,
      'Expected a value after metadata.title: at character 16: a word, a "phrase", a (group) or a [range], not the end of the query.',
    ],
    [
      'metadata.title: OR b',
      17,
      'Expected a value after metadata.title: at character 17: a word, a "phrase", a (group) or a [range], not OR.',
    ],
    ['a AND', 6, 'Unexpected end of the query at character 6: expected a word, a phrase or (.'],
    ['OR a', 1, 'Unexpected OR at character 1: expected a word, a phrase or (.'],
    [
      'a - b',
      3,
      'Unexpected - at character 3: put it right before the word it applies to, or quote it.',
    ],
    [
      'http://example.org',
      1,
      'Unknown field http at character 1: known fields are files.count, metadata.creators.person_or_org.family_name, metadata.description, metadata.publication_date, metadata.resource_type.id, metadata.title, parent.communities.ids, pids.doi.identifier.',
    ],
    [
      '10.1234/x:y',
      10,
      'Unexpected ":" at character 10: a field name holds letters, digits, _ and . only; quote the text or put \\ before the colon.',
    ],
    [
      'metadata.title:(metadata.description:a)',
      17,
      'Field metadata.description inside the group of field metadata.title at character 17: write one field per group.',
    ],
    ['glacier~2', 8, 'Unsupported operator ~ at character 8: quote it or put \\ before it.'],
    ['glacier^2', 8, 'Unsupported operator ^ at character 8: quote it or put \\ before it.'],
    ['glacier\\', 8, 'Nothing to escape after \\ at character 8: remove it or write \\\\.'],
  ])('refuses %s, saying where and what was expected', (q, position, message) => {
    expect(refusal(q)).toMatchObject({ position, message });
  });

  it('names the unknown field and a short list of the known ones', () => {
    const many: SearchFields = Object.fromEntries(
      Array.from({ length: 12 }, (_, i) => [`f${String(i).padStart(2, '0')}`, 'text' as const]),
    );
    expect(() => parseSearchQuery('metadata.titel:x', many)).toThrow(
      'Unknown field metadata.titel at character 1: known fields are f00, f01, f02, f03, f04, f05, f06, f07 and 4 more.',
    );
    expect(() => parseSearchQuery('toString:x', {})).toThrow(
      'Unknown field toString at character 1: no field may be named here.',
    );
    expect(refusal('a constructor:x').reason).toBe('unknown-field');
  });

  it.each([
    ['*ice', 1, 'Leading wildcard at character 1'],
    ['a metadata.title:*ice', 18, 'Leading wildcard at character 18'],
    ['gl*cier', 3, 'Wildcard inside a word at character 3'],
    ['gl\\*ci*r', 7, 'Wildcard inside a word at character 7'],
    ['glaci**', 6, 'Wildcard inside a word at character 6'],
    ['glaci?', 6, 'Wildcard ? is not supported at character 6'],
    ['a OR *', 6, 'Leading wildcard at character 6'],
  ])('refuses the wildcard in %s: an index cannot answer it', (q, position, start) => {
    const error = refusal(q);
    expect(error).toMatchObject({ reason: 'wildcard', position });
    expect(error.message).toMatch(
      new RegExp(`^${start.replace(/[*?]/g, '\\$&')}: an index cannot answer it`),
    );
  });

  it('reads nesting as deep as the length limit allows', () => {
    expect(parse(`${'('.repeat(249)}a${')'.repeat(249)}`)).toEqual(term('a'));
    const negations = parse(`${'-'.repeat(SEARCH_QUERY_MAX_LENGTH - 1)}a`);
    expect(formatSearchQuery(negations as SearchQuery)).toBe(
      `${'NOT '.repeat(SEARCH_QUERY_MAX_LENGTH - 1)}a`,
    );
  });

  it('throws an Error named SearchQueryError, with a reason for callers to map', () => {
    const error = refusal('(a');
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ name: 'SearchQueryError', reason: 'unbalanced-parenthesis' });
  });

  it('counts positions in characters, not UTF-16 units', () => {
    expect(refusal('😀 (a').position).toBe(3);
    expect(refusal('𠀋𠀋 *x').position).toBe(4);
    expect(refusal('a𠀋*x').position).toBe(3);
    expect(refusal('a\\ 𠀋*x').position).toBe(5);
  });

  it(`accepts ${SEARCH_QUERY_MAX_LENGTH} characters and refuses one more, measured after NFKC`, () => {
    const longest = 'a'.repeat(SEARCH_QUERY_MAX_LENGTH);
    expect(parse(longest)).toEqual(term(longest));
    expect(refusal(`${longest}b`)).toMatchObject({
      reason: 'too-long',
      position: SEARCH_QUERY_MAX_LENGTH + 1,
      message: `Query too long at character ${SEARCH_QUERY_MAX_LENGTH + 1}: a query may hold at most ${SEARCH_QUERY_MAX_LENGTH} characters.`,
    });
    // U+FDFA is one character that NFKC turns into 18.
    expect(refusal('\uFDFA'.repeat(28)).reason).toBe('too-long');
  });

  it(`accepts ${SEARCH_QUERY_MAX_WORDS} words and refuses one more, naming where it starts`, () => {
    const words = Array.from({ length: SEARCH_QUERY_MAX_WORDS }, (_, i) => `w${i}`);
    expect(parse(words.join(' '))).toEqual(and(...words.map((w) => term(w))));
    const q = `${words.join(' ')} extra`;
    expect(refusal(q)).toMatchObject({
      reason: 'too-many-words',
      position: q.length - 4,
      message: `Too many words at character ${q.length - 4}: a query may hold at most ${SEARCH_QUERY_MAX_WORDS}.`,
    });
  });

  it('counts the words of values only: field names and operators are not terms', () => {
    const words = Array.from({ length: SEARCH_QUERY_MAX_WORDS / 2 }, (_, i) => `w${i}`);
    expect(parse(`metadata.title:(${words.join(' OR ')}) AND "${words.join(' ')}"`)).not.toBeNull();
    expect(refusal(`"${words.join(' ')}" "${words.join(' ')} one"`).position).toBe(
      words.join(' ').length + 4,
    );
    expect(refusal(`${words.join(' ')} ${words.join('-')}-x`).reason).toBe('too-many-words');
  });
});

describe('formatSearchQuery', () => {
  it.each([
    ['a b OR c', '(a AND b) OR c'],
    ['NOT (a OR b) -c', 'NOT (a OR b) AND NOT c'],
    ['metadata.title:(a OR "b c")', 'metadata.title:a OR metadata.title:"b c"'],
    ['metadata.publication_date:{2019 TO *]', 'metadata.publication_date:{2019 TO *]'],
    ['files.count:["-1" TO 3]', 'files.count:["-1" TO 3]'],
    ['\\AND \\-x a\\ b\\:c\\* glaci*', '\\AND AND \\-x AND a\\ b\\:c\\* AND glaci*'],
    ['"say \\"hi\\""', '"say \\"hi\\""'],
  ])('writes %s as %s', (q, formatted) => {
    const tree = parse(q);
    expect(tree).not.toBeNull();
    expect(formatSearchQuery(tree as SearchQuery)).toBe(formatted);
  });
});

// Texts are drawn from pieces that stay NFKC-normal when joined, so the formatted query
// normalises to itself: letters with accents, CJK, digits, and every character the syntax uses.
const piece = fc.constantFrom(
  'a',
  'Z',
  'é',
  'Müller',
  '氷河',
  '7',
  ' ',
  '-',
  '+',
  '!',
  '&',
  '&&',
  '|',
  '||',
  '(',
  ')',
  '[',
  ']',
  '{',
  '}',
  '"',
  '\\',
  ':',
  '*',
  '?',
  '~',
  '^',
  '/',
  '.',
  'AND',
  'OR',
  'NOT',
  'TO',
);
const text = fc.array(piece, { minLength: 1, maxLength: 4 }).map((pieces) => pieces.join(''));
const textField = fc.constantFrom(
  ...Object.keys(FIELDS).filter((f) => FIELDS[f] === 'text' || FIELDS[f] === 'keyword'),
);
const anyField = fc.option(fc.constantFrom(...Object.keys(FIELDS)), { nil: undefined });
const leaf: fc.Arbitrary<SearchQuery> = fc.oneof(
  fc
    .record({ field: anyField, text, prefix: fc.boolean() })
    .map(({ field, text, prefix }) => term(text, field, prefix ? true : undefined)),
  fc
    .record({ field: fc.option(textField, { nil: undefined }), text })
    .map(({ field, text }) => phrase(text, field)),
  fc
    .record({
      field: fc.constantFrom('metadata.publication_date', 'files.count'),
      from: fc.option(fc.integer({ min: 1000, max: 2999 }), { nil: undefined }),
      to: fc.option(fc.integer({ min: 1000, max: 2999 }), { nil: undefined }),
      inclusiveFrom: fc.boolean(),
      inclusiveTo: fc.boolean(),
    })
    .map(({ from, to, ...rest }) => ({
      kind: 'range' as const,
      ...rest,
      ...(from === undefined ? {} : { from: String(from) }),
      ...(to === undefined ? {} : { to: rest.field === 'files.count' ? `-${to}.5` : String(to) }),
    })),
);
const { tree } = fc.letrec<{ tree: SearchQuery }>((tie) => ({
  tree: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('tree'), { minLength: 2, maxLength: 3 }).map((children) => and(...children)),
    fc.array(tie('tree'), { minLength: 2, maxLength: 3 }).map((children) => or(...children)),
    tie('tree').map(not),
  ),
}));

/** Whether a formatted query is within the limits, so its parse is a tree and not a refusal. */
function withinLimits(q: string): boolean {
  return (
    q.length <= SEARCH_QUERY_MAX_LENGTH &&
    (q.match(/[\p{L}\p{N}]+/gu)?.length ?? 0) <= SEARCH_QUERY_MAX_WORDS
  );
}

describe('search query properties', () => {
  it('parses a formatted tree back to the same tree', () => {
    fc.assert(
      fc.property(tree, (t) => {
        const q = formatSearchQuery(t);
        fc.pre(withinLimits(q));
        expect(parse(q)).toStrictEqual(t);
      }),
      { numRuns: 2000 },
    );
  });

  const syntax = fc
    .array(
      fc.oneof(
        piece,
        fc.constantFrom(
          'metadata.title:',
          'metadata.publication_date:',
          'files.count:',
          'unknown:',
          '2019',
          ' TO ',
          ' ',
          '-5',
          '𠀋',
          '😀',
        ),
      ),
      { maxLength: 20 },
    )
    .map((pieces) => pieces.join(''));

  it('refuses any text with a SearchQueryError and nothing else, and formats what it accepts', () => {
    fc.assert(
      fc.property(fc.oneof(syntax, fc.string({ unit: 'binary', maxLength: 60 })), (q) => {
        let t: SearchQuery | null;
        try {
          t = parse(q);
        } catch (error) {
          expect(error).toBeInstanceOf(SearchQueryError);
          const { position, message, reason } = error as SearchQueryError;
          expect(message).toContain(`at character ${position}`);
          expect(position).toBeGreaterThanOrEqual(1);
          const characters = Array.from(q.normalize('NFKC'));
          expect(position).toBeLessThanOrEqual(characters.length + 1);
          // The position names the character at fault.
          const at = characters[position - 1];
          if (reason === 'wildcard') expect(at).toMatch(/^[*?]$/);
          if (reason === 'unbalanced-parenthesis') expect(at).toMatch(/^[()]$/);
          if (reason === 'unbalanced-quote') expect(at).toBe('"');
          return;
        }
        if (t !== null) expect(parse(formatSearchQuery(t))).toStrictEqual(t);
      }),
      { numRuns: 3000 },
    );
  });
});
