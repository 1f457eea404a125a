import { Cite } from '@citation-js/core';
import '@citation-js/plugin-cff';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { CTX, record, restrictedRecord, richRecord } from '../../../test/exports.js';
import { toCff, yamlString } from './cff.js';

/** Parsed as YAML 1.2 by a parser Cairn did not write, failing on any warning. */
function load(text: string): Record<string, unknown> {
  return parse(text, { strict: true, uniqueKeys: true, prettyErrors: false }) as Record<
    string,
    unknown
  >;
}

describe('CITATION.cff', () => {
  it('parses back to CFF 1.2.0 with the record’s fields', () => {
    const r = richRecord();
    const cff = load(toCff(r, CTX));
    expect(cff).toMatchObject({
      'cff-version': '1.2.0',
      message: 'If you use this dataset, please cite it using the metadata from this file.',
      type: 'dataset',
      title: r.metadata.title,
      doi: '10.5072/ab12c-3de45',
      version: 'v2.0: "final"',
      'date-released': '2024-05-01',
      license: ['CC-BY-4.0', 'MIT'],
      abstract: 'Line one: colons, "quotes" & \'apostrophes\'.\nSecond paragraph — 日本語, émigré.',
      keywords: ['Ice Cover', 'glaciology', 'yes', '- not a list: really'],
      url: 'https://cairn.example/records/ab12c-3de45',
      'repository-code': 'https://github.com/polar/cores',
    });
    expect(cff.identifiers).toEqual([
      { type: 'doi', value: '10.5072/ab12c-3de45', description: 'The version DOI' },
      {
        type: 'doi',
        value: '10.5072/zz99y-8xw77',
        description: 'The concept DOI, for all versions',
      },
      {
        type: 'url',
        value: 'https://cairn.example/records/ab12c-3de45',
        description: 'The landing page',
      },
      { type: 'other', value: 'ark:/12345/x54xz321' },
      { type: 'url', value: 'https://example.org/cores' },
    ]);
  });

  it('names persons by family and given names with ORCID URL and affiliation, organisations by name', () => {
    const authors = load(toCff(richRecord(), CTX)).authors as Array<Record<string, unknown>>;
    expect(authors).toHaveLength(9);
    expect(authors[0]).toEqual({
      'family-names': 'Müller',
      'given-names': 'Jürgen',
      orcid: 'https://orcid.org/0000-0002-1825-0097',
      affiliation: 'CERN',
    });
    expect(authors[1]).toEqual({ name: 'Polar Institute' });
    expect(authors[2]).toMatchObject({
      'family-names': 'Ødegård-0',
      affiliation: 'Alfred Wegener Institute',
    });
    expect(authors[8]).toEqual({ name: 'Polar Consortium: Ice & Snow' });
  });

  it('types software as software, with a single SPDX licence as a string', () => {
    const r = record({ metadata: { ...record().metadata, resource_type: { id: 'software' } } });
    const cff = load(toCff(r, CTX));
    expect(cff.type).toBe('software');
    expect(cff.message).toBe(
      'If you use this software, please cite it using the metadata from this file.',
    );
    expect(cff.license).toBe('CC-BY-4.0');
    expect(cff).not.toHaveProperty('repository-code');
  });

  it('gives a custom licence as license-url and leaves out a date that is not a day', () => {
    const r = record({
      metadata: {
        ...record().metadata,
        publication_date: '2024-05',
        rights: [{ title: { en: 'Custom terms' }, link: 'https://cairn.example/terms' }],
      },
    });
    const cff = load(toCff(r, CTX));
    expect(cff).not.toHaveProperty('license');
    expect(cff['license-url']).toBe('https://cairn.example/terms');
    expect(cff).not.toHaveProperty('date-released');
  });

  it('has no DOI for a record without one, and no file of a restricted record', () => {
    const text = toCff(restrictedRecord(), CTX);
    const cff = load(text);
    expect(cff).not.toHaveProperty('doi');
    expect(cff.identifiers).toContainEqual({
      type: 'url',
      value: 'https://cairn.example/records/ab12c-3de45',
      description: 'The landing page',
    });
    expect(text).not.toContain('/files/');
  });

  it('keeps any text through YAML: colons, quotes, line breaks, YAML words and unicode', () => {
    for (const text of [
      'a: b',
      '"quoted" and \'single\'',
      'line\nbreak\r\nand\ttab',
      'yes',
      'null',
      '1e3',
      '- dash',
      '# hash',
      '@at',
      '  spaces  ',
      'back\\slash',
      '日本語 🧊 émigré',
      '\u0085\u2028\u2029\ufeff\u0007\u007f',
    ])
      expect(load(`k: ${yamlString(text)}\n`).k).toBe(text);
  });

  it('keeps every string but lone surrogates, whatever it holds', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const wellFormed = [...text].filter((ch) => !/^[\ud800-\udfff]$/.test(ch)).join('');
        expect(load(`k: ${yamlString(text)}\n`).k).toBe(wellFormed);
      }),
    );
  });
});

/**
 * What a reference manager makes of the file: citation.js (which Zotero's and others' CFF import
 * builds on) reads it into CSL, the form citations are formatted from.
 */
describe('CITATION.cff read by citation.js', () => {
  it('gives the title, authors, DOI, date, version and type a citation needs', async () => {
    const r = richRecord();
    const [csl] = (await Cite.async(toCff(r, CTX))).data as Array<Record<string, unknown>>;
    expect(csl).toMatchObject({
      type: 'dataset',
      title: r.metadata.title,
      DOI: '10.5072/ab12c-3de45',
      version: 'v2.0: "final"',
      issued: { 'date-parts': [[2024, 5, 1]] },
      URL: 'https://cairn.example/records/ab12c-3de45',
    });
    const authors = csl!.author as Array<Record<string, unknown>>;
    expect(authors).toHaveLength(9);
    expect(authors[0]).toMatchObject({ family: 'Müller', given: 'Jürgen' });
    expect(authors[1]).toEqual({ literal: 'Polar Institute' });
    expect(authors[8]).toEqual({ literal: 'Polar Consortium: Ice & Snow' });
  });

  it('reads any title back as it was written', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme', minLength: 1 }), async (title) => {
        fc.pre(title.trim() !== '');
        const r = record({ metadata: { ...record().metadata, title } });
        const [csl] = (await Cite.async(toCff(r, CTX))).data as Array<{ title?: string }>;
        expect(csl!.title).toBe(title);
      }),
      { numRuns: 300, examples: [['\u2028!'], ['a\u2029b']] },
    );
  });
});
