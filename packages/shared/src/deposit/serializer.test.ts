import { describe, expect, it } from 'vitest';
import type { DepositFormValues } from './form-values.js';
import { removeEmptyValues } from './remove-empty-values.js';
import { deserializeDraft, serializeDraft, type ApiRecord } from './serializer.js';
import { buildValidationOptions } from '../test/builders.js';
import { loadRecord } from '../validation/load-record.js';

const OPTIONS = { defaultLocale: 'en' };

/** A full draft as the API returns it with expand=1 and the vnd Accept header. */
function buildApiDraft(overrides: Record<string, unknown> = {}): ApiRecord {
  return {
    id: 'abcde-12345',
    conceptid: 'zzzzz-00000',
    created: '2025-01-01T00:00:00+00:00',
    updated: '2025-01-02T00:00:00+00:00',
    revision_id: 3,
    expires_at: '2026-01-01',
    is_draft: true,
    is_published: false,
    status: 'draft',
    versions: { index: 1, is_latest: false, is_latest_draft: true },
    links: {
      self: 'http://x/api/records/abcde-12345/draft',
      self_html: 'http://x/uploads/abcde-12345',
    },
    parent: { id: 'p1', communities: {} },
    expanded: {},
    ui: { publication_date_l10n_long: 'May 1, 2024' },
    stats: { views: 1 },
    errors: [{ field: 'metadata.title', messages: ['x'] }],
    access: { record: 'public', files: 'public', embargo: { active: false } },
    files: { enabled: true, entries: {} },
    pids: {},
    custom_fields: {},
    metadata: {
      resource_type: { id: 'dataset', title: { en: 'Dataset' } },
      title: 'Ocean temperatures',
      publication_date: '2024-05-01',
      creators: [
        {
          person_or_org: {
            type: 'personal',
            family_name: 'Lovelace',
            given_name: 'Ada',
            name: 'Lovelace, Ada',
            identifiers: [{ scheme: 'orcid', identifier: '0000-0002-1825-0097' }],
          },
          role: { id: 'researcher', title: { en: 'Researcher' } },
          affiliations: [{ id: '01ggx4157', name: 'CERN' }, { name: 'Analytical Society' }],
        },
      ],
      copyright: 'Copyright (C) 2024',
    },
    ...overrides,
  };
}

describe('deserializeDraft', () => {
  it('rule 1: keeps the read-only parts the editor needs and drops the rest', () => {
    const { record } = deserializeDraft(buildApiDraft(), OPTIONS);
    expect(record).toEqual({
      id: 'abcde-12345',
      links: {
        self: 'http://x/api/records/abcde-12345/draft',
        self_html: 'http://x/uploads/abcde-12345',
      },
      status: 'draft',
      is_published: false,
      versions: { index: 1, is_latest: false, is_latest_draft: true },
      parent: { id: 'p1', communities: {} },
      expanded: {},
      ui: { publication_date_l10n_long: 'May 1, 2024' },
      revision_id: 3,
      created: '2025-01-01T00:00:00+00:00',
      updated: '2025-01-02T00:00:00+00:00',
      files: { enabled: true, entries: {} },
    });
    expect(record).not.toHaveProperty('stats');
    expect(record).not.toHaveProperty('errors');
  });

  it('rule 2: keeps an external DOI being typed even though its identifier is empty', () => {
    const { values } = deserializeDraft(
      buildApiDraft({ pids: { doi: { identifier: '', provider: 'external' } } }),
      OPTIONS,
    );
    expect(values.pids).toEqual({ doi: { identifier: '', provider: 'external' } });
  });

  it('rule 3: gives every missing field its default', () => {
    const { values } = deserializeDraft({ id: 'x', metadata: null, access: {} }, OPTIONS);
    expect(values).toEqual({
      metadata: {
        resource_type: '',
        title: '',
        additional_titles: [],
        publication_date: '',
        creators: [],
        contributors: [],
        description: '',
        additional_descriptions: [],
        rights: [],
        languages: [],
        dates: [],
        version: '',
        publisher: '',
        identifiers: [],
        related_identifiers: [],
        references: [],
        subjects: [],
        funding: [],
      },
      access: { record: 'public', files: 'public', embargo: { active: false } },
      pids: {},
      custom_fields: {},
      files: { enabled: true },
    } satisfies DepositFormValues);
  });

  it('rule 3: keeps access verbatim, unknown keys included', () => {
    const access = {
      record: 'restricted',
      files: 'restricted',
      embargo: { active: true, until: '2030-01-01', reason: 'Patent' },
      status: 'embargoed',
    };
    expect(deserializeDraft(buildApiDraft({ access }), OPTIONS).values.access).toEqual(access);
  });

  it('rules 4–6: creators keep declared keys, role as its id, affiliations as {id?, name}', () => {
    const { values } = deserializeDraft(buildApiDraft(), OPTIONS);
    expect(values.metadata.creators).toEqual([
      {
        person_or_org: {
          type: 'personal',
          family_name: 'Lovelace',
          given_name: 'Ada',
          name: '',
          identifiers: [{ scheme: 'orcid', identifier: '0000-0002-1825-0097' }],
        },
        role: 'researcher',
        affiliations: [{ id: '01ggx4157', name: 'CERN' }, { name: 'Analytical Society' }],
      },
    ]);
  });

  it('shows a person stored with only a name, split at the comma, and sends no fewer names', () => {
    const sent = [
      { type: 'personal', name: 'Doe, Jane' },
      { name: 'Roe, Richard, Jr.' },
      { type: 'personal', given_name: 'Jane', name: 'Doe, Jane' },
      { type: 'personal', name: 'Plato' },
      { type: 'personal', given_name: 'Jane', name: 'Jane Doe' },
      { type: 'personal', given_name: 'Jane' },
    ];
    const draft = buildApiDraft({
      metadata: { creators: sent.map((person_or_org) => ({ person_or_org })) },
    });
    const { values } = deserializeDraft(draft, OPTIONS);
    const names = values.metadata.creators.map(({ person_or_org: p }) => [
      p.family_name,
      p.given_name,
    ]);
    expect(names).toEqual([
      ['Doe', 'Jane'],
      ['Roe', 'Richard, Jr.'],
      ['Doe', 'Jane'],
      ['Plato', ''],
      ['Doe', 'Jane'],
      ['', 'Jane'],
    ]);
    const saved = serializeDraft(values, draft, OPTIONS).metadata['creators'] as Array<{
      person_or_org: unknown;
    }>;
    expect(saved.map((c) => c.person_or_org)).toEqual([
      { type: 'personal', family_name: 'Doe', given_name: 'Jane' },
      { type: 'personal', family_name: 'Roe', given_name: 'Richard, Jr.' },
      { type: 'personal', family_name: 'Doe', given_name: 'Jane' },
      { type: 'personal', family_name: 'Plato' },
      { type: 'personal', family_name: 'Doe', given_name: 'Jane' },
      { type: 'personal', given_name: 'Jane' },
    ]);
  });

  it('rule 4: a reference keeps only its text', () => {
    const draft = buildApiDraft({
      metadata: { references: [{ reference: 'Knuth 1968', identifier: '10.1/x', scheme: 'doi' }] },
    });
    expect(deserializeDraft(draft, OPTIONS).values.metadata.references).toEqual([
      { reference: 'Knuth 1968' },
    ]);
  });

  it('rule 5: collapses every vocabulary field to its id, and a missing one to ""', () => {
    const draft = buildApiDraft({
      metadata: {
        resource_type: { id: 'dataset' },
        languages: [{ id: 'eng', title: { en: 'English' } }, 'dan'],
        additional_titles: [{ title: 'Alt', type: { id: 'alternative-title' } }],
        additional_descriptions: [
          { description: 'M', type: { id: 'methods' }, lang: { id: 'eng' } },
        ],
        dates: [{ date: '2020', type: { id: 'collected' } }],
        related_identifiers: [
          { identifier: '10.1/x', scheme: 'doi', relation_type: { id: 'cites' } },
        ],
        contributors: [{ person_or_org: { type: 'organizational', name: 'CERN' } }],
      },
    });
    const { metadata } = deserializeDraft(draft, OPTIONS).values;
    expect(metadata.resource_type).toBe('dataset');
    expect(metadata.languages).toEqual(['eng', 'dan']);
    expect(metadata.additional_titles).toEqual([
      { title: 'Alt', type: 'alternative-title', lang: '' },
    ]);
    expect(metadata.additional_descriptions).toEqual([
      { description: 'M', type: 'methods', lang: 'eng' },
    ]);
    expect(metadata.dates).toEqual([{ date: '2020', type: 'collected', description: '' }]);
    expect(metadata.related_identifiers).toEqual([
      { identifier: '10.1/x', scheme: 'doi', relation_type: 'cites', resource_type: '' },
    ]);
    expect(metadata.contributors[0]).toEqual({
      person_or_org: {
        type: 'organizational',
        name: 'CERN',
        given_name: '',
        family_name: '',
        identifiers: [],
      },
      role: '',
      affiliations: [],
    });
  });

  it('rule 6: subjects keep {id?, subject} and drop the rest', () => {
    const draft = buildApiDraft({
      metadata: {
        subjects: [
          { id: 'euroscivoc:1', subject: 'Physics', scheme: 'EuroSciVoc' },
          { subject: 'engines' },
        ],
      },
    });
    expect(deserializeDraft(draft, OPTIONS).values.metadata.subjects).toEqual([
      { id: 'euroscivoc:1', subject: 'Physics' },
      { subject: 'engines' },
    ]);
  });

  it('rule 7: unwraps custom license texts from the default locale; standard ones keep their id', () => {
    const draft = buildApiDraft({
      metadata: {
        rights: [
          {
            id: 'cc-by-4.0',
            title: { en: 'Creative Commons Attribution 4.0' },
            props: { url: 'u' },
          },
          {
            title: { de: 'Hauslizenz', en: 'House license' },
            description: { en: 'Be nice.' },
            link: 'https://l',
          },
        ],
      },
    });
    expect(deserializeDraft(draft, { defaultLocale: 'de' }).values.metadata.rights).toEqual([
      { id: 'cc-by-4.0', title: 'Creative Commons Attribution 4.0' },
      { title: 'Hauslizenz', description: 'Be nice.', link: 'https://l' },
    ]);
  });

  it('rule 8: unwraps funding titles, turns a url identifier into url, defaults a missing award', () => {
    const draft = buildApiDraft({
      metadata: {
        funding: [
          { funder: { id: '00k4n6c32', name: 'European Commission' } },
          {
            funder: { name: 'Own funder' },
            award: {
              title: { en: 'Big grant' },
              number: '42',
              identifiers: [
                { scheme: 'doi', identifier: '10.1/a' },
                { scheme: 'url', identifier: 'https://grant.example' },
              ],
            },
          },
        ],
      },
    });
    expect(deserializeDraft(draft, OPTIONS).values.metadata.funding).toEqual([
      { funder: { id: '00k4n6c32', name: 'European Commission' }, award: {} },
      {
        funder: { name: 'Own funder' },
        award: { title: 'Big grant', number: '42', url: 'https://grant.example' },
      },
    ]);
  });

  it('rule 9: vocabulary custom fields hold their ids, also inside lists; the others stay', () => {
    const draft = buildApiDraft({
      custom_fields: {
        'cern:experiments': [{ id: 'atlas', title: { en: 'ATLAS' } }, { id: 'cms' }],
        'cern:beam': { id: 'proton' },
        'journal:journal': { title: 'Nature', volume: '1' },
      },
    });
    expect(
      deserializeDraft(draft, {
        ...OPTIONS,
        vocabularyCustomFields: ['cern:experiments', 'cern:beam'],
      }).values.custom_fields,
    ).toEqual({
      'cern:experiments': ['atlas', 'cms'],
      'cern:beam': 'proton',
      'journal:journal': { title: 'Nature', volume: '1' },
    });
  });

  it('reads files.enabled, defaulting to files enabled', () => {
    expect(
      deserializeDraft(buildApiDraft({ files: { enabled: false } }), OPTIONS).values.files,
    ).toEqual({ enabled: false });
    expect(
      deserializeDraft(
        buildApiDraft({ files: { enabled: true, default_preview: 'a.csv' } }),
        OPTIONS,
      ).values.files,
    ).toEqual({ enabled: true, default_preview: 'a.csv' });
  });
});

describe('serializeDraft', () => {
  function roundTrip(draft: ApiRecord, options = OPTIONS) {
    return serializeDraft(deserializeDraft(draft, options).values, draft, options);
  }

  it('rule 1: sends only the storable parts, never status, versions, links or expanded', () => {
    const payload = roundTrip(buildApiDraft());
    expect(Object.keys(payload).sort()).toEqual([
      'access',
      'custom_fields',
      'files',
      'metadata',
      'pids',
    ]);
  });

  it('sends vocabulary-like fields as {id}', () => {
    const payload = roundTrip(
      buildApiDraft({
        metadata: {
          resource_type: { id: 'dataset' },
          languages: [{ id: 'eng' }],
          creators: [
            { person_or_org: { type: 'personal', family_name: 'L' }, role: { id: 'researcher' } },
          ],
          dates: [{ date: '2020', type: { id: 'collected' } }],
        },
      }),
    );
    expect(payload.metadata).toEqual({
      resource_type: { id: 'dataset' },
      languages: [{ id: 'eng' }],
      creators: [
        { person_or_org: { type: 'personal', family_name: 'L' }, role: { id: 'researcher' } },
      ],
      dates: [{ date: '2020', type: { id: 'collected' } }],
    });
  });

  it('sends a person by its names and an organisation by its name', () => {
    const { values } = deserializeDraft(buildApiDraft(), OPTIONS);
    const person = values.metadata.creators[0]!;
    values.metadata.creators.push({
      ...person,
      person_or_org: { ...person.person_or_org, type: 'organizational', name: 'CERN' },
    });
    const creators = serializeDraft(values, null, OPTIONS).metadata['creators'] as unknown[];
    expect(creators[0]).toMatchObject({
      person_or_org: { type: 'personal', family_name: 'Lovelace', given_name: 'Ada' },
    });
    expect(creators[1]).toEqual({
      person_or_org: {
        type: 'organizational',
        name: 'CERN',
        identifiers: [{ scheme: 'orcid', identifier: '0000-0002-1825-0097' }],
      },
      role: { id: 'researcher' },
      affiliations: [{ id: '01ggx4157', name: 'CERN' }, { name: 'Analytical Society' }],
    });
  });

  it('wraps custom license texts by the default locale and sends a standard license as {id}', () => {
    const draft = buildApiDraft({
      metadata: {
        rights: [
          { id: 'cc-by-4.0', title: { en: 'CC BY' } },
          { title: { de: 'Hauslizenz' }, description: { de: 'Nett sein.' }, link: 'https://l' },
        ],
      },
    });
    expect(roundTrip(draft, { defaultLocale: 'de' }).metadata['rights']).toEqual([
      { id: 'cc-by-4.0' },
      { title: { de: 'Hauslizenz' }, description: { de: 'Nett sein.' }, link: 'https://l' },
    ]);
  });

  it('sends a funder or award url as an identifiers entry with scheme url, titles wrapped', () => {
    const { values } = deserializeDraft(buildApiDraft(), OPTIONS);
    values.metadata.funding = [
      { funder: { id: '00k4n6c32', name: 'European Commission' }, award: { id: 'a1', title: 'X' } },
      {
        funder: { name: 'Own funder', url: 'https://f' },
        award: { title: 'Grant', number: '42', url: 'https://g' },
      },
    ];
    expect(serializeDraft(values, null, OPTIONS).metadata['funding']).toEqual([
      { funder: { id: '00k4n6c32' }, award: { id: 'a1' } },
      {
        funder: { name: 'Own funder', identifiers: [{ identifier: 'https://f', scheme: 'url' }] },
        award: {
          title: { en: 'Grant' },
          number: '42',
          identifiers: [{ identifier: 'https://g', scheme: 'url' }],
        },
      },
    ]);
  });

  it('removes empty values and sends metadata and custom_fields even when empty', () => {
    const { values } = deserializeDraft({}, OPTIONS);
    values.metadata.additional_titles.push({ title: '', type: 'alternative-title', lang: '' });
    values.metadata.creators.push({
      person_or_org: {
        type: 'personal',
        given_name: '',
        family_name: '',
        name: '',
        identifiers: [],
      },
      role: '',
      affiliations: [],
    });
    expect(serializeDraft(values, null, OPTIONS)).toEqual({
      metadata: {
        additional_titles: [{ type: { id: 'alternative-title' } }],
        creators: [{ person_or_org: { type: 'personal' } }],
      },
      access: { record: 'public', files: 'public', embargo: { active: false } },
      files: { enabled: true },
      pids: {},
      custom_fields: {},
    });
  });

  it('sends a row left empty as {} in its place, so the indexes of the rows after it match', () => {
    const { values } = deserializeDraft({}, OPTIONS);
    values.metadata.references.push({ reference: '' }, { reference: 'Knuth 1968' });
    values.metadata.dates.push({ date: '', type: '', description: '' });
    values.metadata.identifiers.push({ identifier: '', scheme: '' });
    values.metadata.related_identifiers.push({
      relation_type: '',
      identifier: '',
      scheme: '',
      resource_type: '',
    });
    values.metadata.additional_descriptions.push({ description: '', type: '', lang: '' });
    const { metadata } = serializeDraft(values, null, OPTIONS);
    expect(metadata).toEqual({
      references: [{}, { reference: 'Knuth 1968' }],
      dates: [{}],
      identifiers: [{}],
      related_identifiers: [{}],
      additional_descriptions: [{}],
    });
    // The server reads them as absent, but the rows after them keep their indexes.
    const { errors } = loadRecord(
      { metadata: { ...metadata, identifiers: [{}, { identifier: '10.1/x', scheme: 'nope' }] } },
      buildValidationOptions(),
    );
    expect(errors.map((error) => error.field)).toContain('metadata.identifiers.1.scheme');
  });

  it('always sends pids: {} when none, and an empty external DOI as chosen', () => {
    const { values } = deserializeDraft({}, OPTIONS);
    expect(serializeDraft(values, null, OPTIONS).pids).toEqual({});
    values.pids = { doi: { identifier: '', provider: 'external' } };
    expect(serializeDraft(values, null, OPTIONS).pids).toEqual({
      doi: { identifier: '', provider: 'external' },
    });
  });

  it('keeps files.enabled false: a metadata-only record says so', () => {
    const { values } = deserializeDraft({ files: { enabled: false } }, OPTIONS);
    expect(serializeDraft(values, null, OPTIONS).files).toEqual({ enabled: false });
  });

  it('sends vocabulary custom fields as {id}, the others as they are', () => {
    const draft = buildApiDraft({
      custom_fields: {
        'cern:experiments': [{ id: 'atlas' }],
        'journal:journal': { title: 'Nature', issn: '0028-0836' },
        'thesis:thesis': { university: 'Uni', type: { id: 'phd' } },
      },
    });
    const options = {
      ...OPTIONS,
      vocabularyCustomFields: ['cern:experiments', 'thesis:thesis.type'],
    };
    const { values } = deserializeDraft(draft, options);
    expect(values.custom_fields['thesis:thesis']).toEqual({ university: 'Uni', type: 'phd' });
    expect(serializeDraft(values, draft, options).custom_fields).toEqual({
      'cern:experiments': [{ id: 'atlas' }],
      'journal:journal': { title: 'Nature', issn: '0028-0836' },
      'thesis:thesis': { university: 'Uni', type: { id: 'phd' } },
    });
  });

  it('sends back metadata the form does not edit, so a save never wipes it', () => {
    expect(roundTrip(buildApiDraft()).metadata['copyright']).toBe('Copyright (C) 2024');
  });

  it('round-trips a full draft without losing anything it edits', () => {
    const metadata = {
      resource_type: { id: 'dataset' },
      title: 'T',
      additional_titles: [{ title: 'Alt', type: { id: 'alternative-title' }, lang: { id: 'eng' } }],
      publication_date: '2024',
      creators: [{ person_or_org: { type: 'organizational', name: 'CERN' } }],
      description: '<p>D</p>',
      additional_descriptions: [{ description: 'M', type: { id: 'methods' } }],
      rights: [{ id: 'cc-by-4.0' }],
      languages: [{ id: 'eng' }],
      dates: [{ date: '2020/2021', type: { id: 'collected' }, description: 'field work' }],
      version: 'v1',
      publisher: 'Cairn',
      identifiers: [{ scheme: 'doi', identifier: '10.1/x' }],
      related_identifiers: [
        {
          scheme: 'doi',
          identifier: '10.1/y',
          relation_type: { id: 'cites' },
          resource_type: { id: 'dataset' },
        },
      ],
      references: [{ reference: 'Knuth' }],
      subjects: [{ subject: 'engines' }],
      funding: [{ funder: { id: 'f1' }, award: { id: 'a1' } }],
    };
    expect(roundTrip(buildApiDraft({ metadata })).metadata).toEqual(metadata);
  });
});

describe('removeEmptyValues (rule R)', () => {
  it('drops empty strings, nulls, empty arrays and objects deeply', () => {
    expect(
      removeEmptyValues({
        title: '',
        nothing: null,
        creators: [{ person_or_org: { type: 'personal', family_name: '', given_name: null } }],
        resource_type: { id: '' },
        list: [[], {}, '', null, 'a'],
      }),
    ).toEqual({ creators: [{ person_or_org: { type: 'personal' } }], list: ['a'] });
  });

  it('keeps numbers and booleans at object level, even 0 and false', () => {
    expect(removeEmptyValues({ version: 0, cool: false, n: 3 })).toEqual({
      version: 0,
      cool: false,
      n: 3,
    });
  });

  it('drops 0 and false inside arrays (InvenioRDM quirk), keeps truthy ones', () => {
    expect(removeEmptyValues({ list: [0, false, 1, true] })).toEqual({ list: [1, true] });
  });

  it('turns falsy scalars into null and returns numbers and booleans as they are', () => {
    expect(removeEmptyValues('')).toBeNull();
    expect(removeEmptyValues(undefined)).toBeNull();
    expect(removeEmptyValues(0)).toBe(0);
    expect(removeEmptyValues(false)).toBe(false);
    expect(removeEmptyValues({})).toBeNull();
  });

  it('keeps a `__proto__` key of parsed JSON as an own key, never as the prototype', () => {
    const cleaned = removeEmptyValues(JSON.parse('{"__proto__": {"polluted": "yes"}, "a": "b"}'));
    expect(Object.getPrototypeOf(cleaned)).toBe(Object.prototype);
    expect((cleaned as { polluted?: string }).polluted).toBeUndefined();
    expect(Object.keys(cleaned as object)).toEqual(['__proto__', 'a']);
  });
});
