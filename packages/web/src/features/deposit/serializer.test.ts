import { describe, expect, it } from 'vitest';
import { buildDraft } from '../../test/builders';
import {
  createEmptyFormValues,
  removeEmptyValues,
  serializeDraft,
  toFormValues,
  type DepositFormValues,
} from './serializer';

describe('removeEmptyValues', () => {
  it('drops empty strings, nulls, empty arrays and objects deeply', () => {
    expect(
      removeEmptyValues({
        title: '',
        creators: [{ person_or_org: { type: 'personal', family_name: '', given_name: null } }],
        resource_type: { id: '' },
        version: 0,
        flag: false,
        list: [0, false, 'a', {}],
      }),
    ).toEqual({
      creators: [{ person_or_org: { type: 'personal' } }],
      version: 0,
      flag: false,
      list: ['a'],
    });
  });
});

describe('serializeDraft', () => {
  it('sends a new empty form as a metadata-only public draft', () => {
    expect(serializeDraft(createEmptyFormValues(''), null)).toEqual({
      metadata: { creators: [{ person_or_org: { type: 'personal' } }] },
      access: { record: 'public', files: 'public' },
      files: { enabled: false },
      pids: {},
      custom_fields: {},
    });
  });

  it('sends only the name of an organisation', () => {
    const values: DepositFormValues = {
      metadata: {
        title: 'T',
        creators: [
          {
            person_or_org: {
              type: 'organizational',
              name: 'CERN',
              family_name: 'left over',
              given_name: 'from a person',
            },
          },
        ],
        publication_date: '2024',
        resource_type: 'dataset',
      },
    };
    expect(serializeDraft(values, null).metadata['creators']).toEqual([
      { person_or_org: { type: 'organizational', name: 'CERN' } },
    ]);
  });

  it('sends back what the form does not edit, so a save never wipes it', () => {
    const draft = buildDraft({
      metadata: {
        ...buildDraft().metadata,
        description: '<p>Measured daily.</p>',
        creators: [
          {
            person_or_org: {
              type: 'personal',
              family_name: 'Lovelace',
              given_name: 'Ada',
              identifiers: [{ scheme: 'orcid', identifier: '0000-0002-1825-0097' }],
            },
            affiliations: [{ name: 'Analytical Society' }],
          },
        ],
      },
      access: { record: 'restricted', files: 'restricted', embargo: { active: false } },
      pids: { doi: { identifier: '10.1234/x', provider: 'external' } },
      custom_fields: { 'journal:journal': { title: 'Nature' } },
    });

    const payload = serializeDraft(toFormValues(draft), draft);

    expect(payload.metadata).toMatchObject({
      description: '<p>Measured daily.</p>',
      creators: [
        {
          person_or_org: {
            type: 'personal',
            family_name: 'Lovelace',
            given_name: 'Ada',
            identifiers: [{ scheme: 'orcid', identifier: '0000-0002-1825-0097' }],
          },
          affiliations: [{ name: 'Analytical Society' }],
        },
      ],
      resource_type: { id: 'dataset' },
    });
    expect(payload.access).toEqual({
      record: 'restricted',
      files: 'restricted',
      embargo: { active: false },
    });
    expect(payload.pids).toEqual({ doi: { identifier: '10.1234/x', provider: 'external' } });
    expect(payload.custom_fields).toEqual({ 'journal:journal': { title: 'Nature' } });
  });

  it('keeps files enabled only on a draft that has files', () => {
    const values = createEmptyFormValues('2024');
    expect(
      serializeDraft(values, buildDraft({ files: { enabled: true, count: 0 } })).files,
    ).toEqual({ enabled: false });
    expect(
      serializeDraft(values, buildDraft({ files: { enabled: true, count: 2 } })).files,
    ).toEqual({ enabled: true });
  });
});

describe('toFormValues', () => {
  it('fills the form from a draft and gives an empty draft one empty creator', () => {
    expect(toFormValues(buildDraft()).metadata).toEqual({
      title: 'Ocean temperatures',
      creators: [
        {
          person_or_org: { type: 'personal', family_name: 'Lovelace', given_name: 'Ada', name: '' },
        },
      ],
      publication_date: '2024-05-01',
      resource_type: 'dataset',
    });
    expect(toFormValues(buildDraft({ metadata: {} })).metadata.creators).toEqual(
      createEmptyFormValues('').metadata.creators,
    );
  });
});
