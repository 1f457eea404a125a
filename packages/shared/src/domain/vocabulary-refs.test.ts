import { describe, expect, it } from 'vitest';
import { collectVocabularyRefs } from './vocabulary-refs.js';
import { buildRecordData } from '../test/builders.js';

describe('collectVocabularyRefs', () => {
  it('lists every vocabulary id of a full record with its type and path, in document order', () => {
    expect(collectVocabularyRefs(buildRecordData())).toEqual([
      { type: 'resourcetypes', id: 'dataset', field: 'metadata.resource_type' },
      { type: 'titletypes', id: 'alternative-title', field: 'metadata.additional_titles.0.type' },
      { type: 'languages', id: 'eng', field: 'metadata.additional_titles.0.lang' },
      { type: 'creatorsroles', id: 'researcher', field: 'metadata.creators.0.role' },
      { type: 'affiliations', id: '01ggx4157', field: 'metadata.creators.0.affiliations.0' },
      { type: 'contributorsroles', id: 'datacurator', field: 'metadata.contributors.0.role' },
      { type: 'affiliations', id: '01ggx4157', field: 'metadata.contributors.0.affiliations.0' },
      { type: 'descriptiontypes', id: 'methods', field: 'metadata.additional_descriptions.0.type' },
      { type: 'languages', id: 'eng', field: 'metadata.additional_descriptions.0.lang' },
      { type: 'licenses', id: 'cc-by-4.0', field: 'metadata.rights.0' },
      {
        type: 'subjects',
        id: 'http://www.oecd.org/science/inno/38235147.pdf?1.1',
        field: 'metadata.subjects.0',
      },
      { type: 'languages', id: 'eng', field: 'metadata.languages.0' },
      { type: 'datetypes', id: 'collected', field: 'metadata.dates.0.type' },
      {
        type: 'relationtypes',
        id: 'iscitedby',
        field: 'metadata.related_identifiers.0.relation_type',
      },
      {
        type: 'resourcetypes',
        id: 'publication-article',
        field: 'metadata.related_identifiers.0.resource_type',
      },
      { type: 'funders', id: '00k4n6c32', field: 'metadata.funding.0.funder' },
      { type: 'awards', id: '00k4n6c32::755021', field: 'metadata.funding.0.award' },
    ]);
  });

  it('skips free-text entries and finds nothing in empty metadata', () => {
    const data = buildRecordData({
      metadata: {
        creators: [
          {
            person_or_org: { type: 'organizational', name: 'CERN' },
            affiliations: [{ name: 'Free text' }],
          },
        ],
        subjects: [{ subject: 'engines' }],
        rights: [{ title: { en: 'Custom' } }],
        funding: [{ funder: { name: 'Royal Society' } }],
      },
    });
    expect(collectVocabularyRefs(data)).toEqual([]);
    expect(collectVocabularyRefs(buildRecordData({ metadata: {} }))).toEqual([]);
  });
});
