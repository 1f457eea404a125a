import { describe, expect, it } from 'vitest';
import { CTX, record, restrictedRecord, richRecord } from '../../../test/exports.js';
import { toCodeMeta } from './codemeta.js';

function software() {
  const r = richRecord();
  return { ...r, metadata: { ...r.metadata, resource_type: { id: 'software' } } };
}

describe('CodeMeta', () => {
  it('describes software as SoftwareSourceCode in CodeMeta 3.0', () => {
    const json = toCodeMeta(software(), CTX);
    expect(json).toMatchObject({
      '@context': 'https://w3id.org/codemeta/3.0',
      '@type': 'SoftwareSourceCode',
      '@id': 'https://doi.org/10.5072/ab12c-3de45',
      identifier: 'https://doi.org/10.5072/ab12c-3de45',
      name: richRecord().metadata.title,
      version: 'v2.0: "final"',
      license: [
        'https://spdx.org/licenses/CC-BY-4.0',
        'https://spdx.org/licenses/MIT',
        'https://cairn.example/terms',
      ],
      keywords: ['Ice Cover', 'glaciology', 'yes', '- not a list: really'],
      codeRepository: 'https://github.com/polar/cores',
      dateCreated: '2024-05-02',
      datePublished: '2024-05-01',
      dateModified: '2024-05-03',
      url: 'https://cairn.example/records/ab12c-3de45',
    });
    expect(json.description).toContain('Second paragraph — 日本語');
  });

  it('names authors with given and family names, ORCID and affiliation', () => {
    const authors = toCodeMeta(software(), CTX).author as Array<Record<string, unknown>>;
    expect(authors).toHaveLength(9);
    expect(authors[0]).toEqual({
      '@type': 'Person',
      '@id': 'https://orcid.org/0000-0002-1825-0097',
      name: 'Müller, Jürgen',
      givenName: 'Jürgen',
      familyName: 'Müller',
      affiliation: [{ '@type': 'Organization', '@id': 'https://ror.org/01ggx4157', name: 'CERN' }],
    });
    expect(authors[8]).toEqual({
      '@type': 'Organization',
      '@id': 'https://ror.org/01ggx4157',
      name: 'Polar Consortium: Ice & Snow',
    });
  });

  it('keeps the schema.org type of a record that is not software', () => {
    expect(toCodeMeta(record(), CTX)['@type']).toBe('Dataset');
  });

  it('finds the repository on a forge when no relation says supplement', () => {
    const r = record({
      metadata: {
        ...record().metadata,
        related_identifiers: [
          {
            identifier: 'https://example.org/x',
            scheme: 'url',
            relation_type: { id: 'references' },
          },
          {
            identifier: 'https://codeberg.org/polar/cores',
            scheme: 'url',
            relation_type: { id: 'isderivedfrom' },
          },
        ],
      },
    });
    expect(toCodeMeta(r, CTX).codeRepository).toBe('https://codeberg.org/polar/cores');
    expect(toCodeMeta(record(), CTX)).not.toHaveProperty('codeRepository');
  });

  it('has no identifier without a DOI and names no file of a restricted record', () => {
    const json = toCodeMeta(restrictedRecord(), CTX);
    expect(json).not.toHaveProperty('identifier');
    expect(json['@id']).toBe('https://cairn.example/records/ab12c-3de45');
    expect(JSON.stringify(json)).not.toContain('/files/');
  });
});
