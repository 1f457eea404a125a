import { describe, expect, it } from 'vitest';
import { loadRecord, validateForPublish } from './load-record.js';
import { RecordDataSchema, type RecordData } from '../domain/record.js';
import { buildCreator, buildRecordData, buildValidationOptions } from '../test/builders.js';
import { byField } from '../test/field-errors.js';

const options = buildValidationOptions();
const REQUIRED = 'Missing data for required field.';

describe('loadRecord: a complete record', () => {
  it('loads the builder record without errors and without changing it', () => {
    const record = buildRecordData();
    const { data, errors } = loadRecord(record, options);
    expect(errors).toEqual([]);
    expect(data).toEqual(record);
  });

  it('ignores dump-only and unknown top-level keys silently', () => {
    const record = buildRecordData();
    const response = {
      ...record,
      id: 'ha4g3-7x208',
      links: { self: 'https://x/api/records/ha4g3-7x208/draft' },
      status: 'draft',
      revision_id: 4,
      is_draft: true,
      versions: { index: 1 },
      parent: { id: 'bhgqt-2ke02' },
      access: { ...record.access, status: 'open' },
      foo: 'bar',
    };
    const { data, errors } = loadRecord(response, options);
    expect(errors).toEqual([]);
    expect(data).toEqual(record);
  });
});

describe('loadRecord: an empty or malformed body', () => {
  it('reports the four required metadata fields and stores defaults', () => {
    const { data, errors } = loadRecord({}, options);
    expect(byField(errors)).toEqual({
      'metadata.title': [REQUIRED],
      'metadata.publication_date': [REQUIRED],
      'metadata.resource_type': [REQUIRED],
      'metadata.creators': [REQUIRED],
    });
    expect(data).toEqual({
      metadata: {},
      custom_fields: {},
      access: { record: 'public', files: 'public', embargo: { active: false } },
      files: { enabled: true },
      pids: {},
    });
  });

  it('never throws, even for a body that is not an object', () => {
    for (const body of [null, undefined, 'text', 42, [], [{ metadata: {} }]]) {
      const { data, errors } = loadRecord(body, options);
      expect(errors[0]).toEqual({ field: '_schema', messages: ['Invalid input type.'] });
      expect(data.metadata).toEqual({});
    }
  });

  it('reports metadata that is not an object, along with what is then missing', () => {
    expect(byField(loadRecord({ metadata: 'x' }, options).errors)).toEqual({
      metadata: ['Invalid input type.'],
      'metadata.title': [REQUIRED],
      'metadata.publication_date': [REQUIRED],
      'metadata.resource_type': [REQUIRED],
      'metadata.creators': [REQUIRED],
    });
  });
});

describe('loadRecord: what the form sends', () => {
  it('treats empty strings, lists and objects as absent', () => {
    // The shape of InvenioRDM's "empty dump" that a fresh form holds.
    const body = {
      metadata: {
        title: 'A title',
        publication_date: '2024',
        resource_type: { id: 'dataset' },
        creators: [buildCreator()],
        additional_titles: [null],
        additional_descriptions: [{ description: '', type: { id: '' }, lang: { id: '' } }],
        description: '',
        rights: [{}],
        languages: [],
        subjects: [],
        dates: [{ date: '', type: '', description: '' }],
        funding: [{ funder: {}, award: {} }],
        identifiers: [{ identifier: '', scheme: '' }],
        related_identifiers: [
          { identifier: '', scheme: '', relation_type: { id: '' }, resource_type: '' },
        ],
        references: [{ reference: '' }],
        version: '',
        publisher: '   ',
        contributors: null,
      },
      custom_fields: { 'journal:journal': { title: '' } },
      access: {
        record: 'public',
        files: 'public',
        embargo: { active: false, until: '', reason: '' },
      },
      files: { enabled: true },
      pids: {},
    };
    const { data, errors } = loadRecord(body, options);
    expect(errors).toEqual([]);
    expect(data.metadata).toEqual({
      title: 'A title',
      publication_date: '2024',
      resource_type: { id: 'dataset' },
      creators: [buildCreator()],
    });
    expect(data.custom_fields).toEqual({});
    expect(data.access.embargo).toEqual({ active: false });
  });

  it('trims every string it stores', () => {
    const { data } = loadRecord(
      {
        metadata: {
          title: '  Trimmed  ',
          creators: [
            { person_or_org: { type: ' personal ', family_name: ' Curie ', given_name: ' Marie' } },
          ],
          subjects: [{ subject: ' radium ' }],
        },
      },
      options,
    );
    expect(data.metadata.title).toBe('Trimmed');
    expect(data.metadata.creators).toEqual([
      {
        person_or_org: {
          type: 'personal',
          family_name: 'Curie',
          given_name: 'Marie',
          name: 'Curie, Marie',
        },
      },
    ]);
    expect(data.metadata.subjects).toEqual([{ subject: 'radium' }]);
  });
});

describe('loadRecord: partial save', () => {
  const body = {
    metadata: {
      title: 'ab',
      publication_date: '2020-13',
      resource_type: { id: 'dataset' },
      creators: [
        {
          person_or_org: {
            type: 'personal',
            given_name: 'Marie',
            identifiers: [
              { identifier: '0000-0002-1825-0097' },
              { identifier: 'bogus', scheme: 'orcid' },
            ],
          },
          affiliations: [{ name: 'Sorbonne' }],
        },
        'not a creator',
      ],
      languages: [{ id: 'fra' }, 7],
    },
  };
  const { data, errors } = loadRecord(body, options);

  it('reports every problem', () => {
    expect(byField(errors)).toEqual({
      'metadata.title': ['Shorter than minimum length 3.'],
      'metadata.publication_date': ['Please provide a valid date or interval.'],
      'metadata.creators.0.person_or_org.family_name': ['Family name cannot be blank.'],
      'metadata.creators.0.person_or_org.identifiers.1.identifier': ['Invalid ORCID identifier.'],
      'metadata.creators.1': ['Invalid input type.'],
      'metadata.languages.1': ['Invalid input type.'],
    });
  });

  it('drops the invalid values, in the smallest unit, and keeps everything else', () => {
    expect(data.metadata).toEqual({
      resource_type: { id: 'dataset' },
      creators: [
        {
          person_or_org: {
            type: 'personal',
            given_name: 'Marie',
            name: 'Marie',
            identifiers: [{ scheme: 'orcid', identifier: '0000-0002-1825-0097' }],
          },
          affiliations: [{ name: 'Sorbonne' }],
        },
      ],
      languages: [{ id: 'fra' }],
    });
  });

  it('leaves stored data that reloads to itself, with only the missing values still reported', () => {
    const again = loadRecord(data, options, data);
    expect(again.data).toEqual(data);
    expect(byField(again.errors)).toEqual({
      'metadata.title': [REQUIRED],
      'metadata.publication_date': [REQUIRED],
      'metadata.creators.0.person_or_org.family_name': ['Family name cannot be blank.'],
    });
  });
});

describe('loadRecord: replacing a draft (PUT) with previous data', () => {
  const previous: RecordData = buildRecordData({
    access: {
      record: 'restricted',
      files: 'restricted',
      embargo: { active: true, until: '2030-01-01' },
    },
    files: { enabled: false },
    pids: { doi: { identifier: '10.1234/reserved', provider: 'datacite' } },
  });

  it('keeps the previous access and pids when the body omits them', () => {
    const { data, errors } = loadRecord({ metadata: previous.metadata }, options, previous);
    expect(errors).toEqual([]);
    expect(data.access).toEqual(previous.access);
    expect(data.pids).toEqual(previous.pids);
  });

  it('resets what a replacement resets: files enabled, metadata, custom fields', () => {
    const { data } = loadRecord({}, options, previous);
    expect(data.files).toEqual({ enabled: true });
    expect(data.metadata).toEqual({});
    expect(data.custom_fields).toEqual({});
  });

  it('replaces access and pids when the body sends them', () => {
    const { data } = loadRecord(
      { metadata: previous.metadata, access: { record: 'public', files: 'public' }, pids: {} },
      options,
      previous,
    );
    expect(data.access).toEqual({ record: 'public', files: 'public', embargo: { active: false } });
    expect(data.pids).toEqual({});
  });

  it('never shares objects with previous, so the caller may change the result', () => {
    const { data } = loadRecord({ metadata: previous.metadata }, options, previous);
    expect(data.access).not.toBe(previous.access);
    expect(data.access.embargo).not.toBe(previous.access.embargo);
    expect(data.pids).not.toBe(previous.pids);
  });
});

describe('loadRecord: large records', () => {
  function manyCreators(count: number) {
    return Array.from({ length: count }, (_, i) => buildCreator(i));
  }

  it('loads 10 000 creators, reporting problems by index', () => {
    const creators: unknown[] = manyCreators(10_000);
    creators[9_999] = { person_or_org: { type: 'personal' } };
    const record = buildRecordData();
    const { data, errors } = loadRecord(
      { ...record, metadata: { ...record.metadata, creators } },
      options,
    );
    expect(data.metadata.creators).toHaveLength(10_000);
    expect(byField(errors)).toEqual({
      'metadata.creators.9999.person_or_org.family_name': ['Family name cannot be blank.'],
    });
  });

  it('validates a 2 000-creator record for publishing', () => {
    const record = buildRecordData();
    const data = { ...record, metadata: { ...record.metadata, creators: manyCreators(2_000) } };
    expect(validateForPublish(data, options)).toEqual([]);
  });
});

/*
 * Properties that must hold for ANY body: loadRecord never throws, what it stores satisfies
 * RecordDataSchema, loading stored data again changes nothing, and no field appears twice in the
 * errors. Checked on a deterministic stream of bodies made by replacing parts of a valid record
 * with junk.
 */
describe('loadRecord: properties over mutated records', () => {
  const JUNK: unknown[] = [
    undefined,
    null,
    '',
    '  padded  ',
    'ab',
    'not-a-date',
    '2020-13',
    '10.1234/x',
    '0000-0002-1825-0098',
    'https://example.org',
    42,
    true,
    [],
    [null],
    [''],
    {},
    { id: '' },
    { id: 5 },
    { id: 'x', title: { en: 'T' } },
    { foo: 'bar' },
    [{}],
    [{ identifier: 'x' }],
    [{ person_or_org: { type: 'personal' } }],
    { en: 'A', de: 'B' },
    { active: true, until: '2020-01-01' },
  ];

  /** A small deterministic generator (mulberry32), so a failure reproduces. */
  function random(seed: number): () => number {
    let state = seed;
    return () => {
      state = (state + 0x6d2b79f5) | 0;
      let t = Math.imul(state ^ (state >>> 15), 1 | state);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  function containers(value: unknown, out: Array<Record<string | number, unknown>> = []) {
    if (typeof value === 'object' && value !== null) {
      out.push(value as Record<string | number, unknown>);
      for (const child of Object.values(value)) containers(child, out);
    }
    return out;
  }

  function mutated(next: () => number): unknown {
    const body = structuredClone(buildRecordData()) as unknown;
    const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
    const changes = 1 + Math.floor(next() * 4);
    for (let i = 0; i < changes; i += 1) {
      const container = pick(containers(body));
      const keys = Object.keys(container);
      if (keys.length > 0) container[pick(keys)] = structuredClone(pick(JUNK));
    }
    return body;
  }

  it('hold for 500 mutated records', () => {
    const next = random(20250615);
    for (let run = 0; run < 500; run += 1) {
      const body = mutated(next);
      const { data, errors } = loadRecord(body, options);
      const parsed = RecordDataSchema.safeParse(data);
      expect(parsed.success, `run ${run}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
      expect(loadRecord(data, options, data).data, `run ${run}`).toEqual(data);
      const fields = errors.map((error) => error.field);
      expect(new Set(fields).size, `run ${run}`).toBe(fields.length);
    }
  });
});
