// Records and tools the export tests share: a published record as the API presents it, a richer
// one with every field exports read, and xmllint, which judges the XML exports by a tool Cairn
// did not write.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { vocabularyFixtures } from '../modules/vocabularies/fixtures/index.js';
import type { VocabularyEntry } from '../modules/vocabularies/vocabularies.repository.js';
import type { ExportContext, ExportRecord } from '../modules/records/exports/export-record.js';

const entries = new Map(
  vocabularyFixtures().map((f) => [`${f.type}:${f.id}`, { ...f, tags: f.tags ?? [] }]),
);
export const CTX: ExportContext = {
  siteUrl: 'https://cairn.example',
  siteName: 'Cairn',
  vocab: (type, id): VocabularyEntry | undefined => entries.get(`${type}:${id}`),
};

/** A published record as GET /api/records/{id} returns it (vocabulary titles expanded). */
export function record(overrides: Partial<ExportRecord> = {}): ExportRecord {
  return {
    id: 'ab12c-3de45',
    created: '2024-05-02T10:00:00.000000+00:00',
    updated: '2024-05-03T11:00:00.000000+00:00',
    pids: { doi: { identifier: '10.5072/ab12c-3de45', provider: 'datacite' } },
    parent: { id: 'zz99y-8xw77', pids: {} },
    access: {
      record: 'public',
      files: 'public',
      embargo: { active: false },
      status: 'open',
    },
    files: {
      enabled: true,
      entries: {
        'cores.csv': { key: 'cores.csv', size: 1234, mimetype: 'text/csv' },
        'paper.pdf': { key: 'paper.pdf', size: 5_000_000, mimetype: 'application/pdf' },
      },
    },
    metadata: {
      title: 'Ice cores & 50% of the_Weddell {Sea}',
      creators: [
        {
          person_or_org: {
            type: 'personal',
            name: 'Müller, Jürgen',
            given_name: 'Jürgen',
            family_name: 'Müller',
            identifiers: [{ scheme: 'orcid', identifier: '0000-0002-1825-0097' }],
          },
          affiliations: [{ id: '01ggx4157', name: 'CERN' }],
        },
        { person_or_org: { type: 'organizational', name: 'Polar Institute' } },
      ],
      contributors: [
        {
          person_or_org: { type: 'personal', family_name: 'Nansen', given_name: 'Fridtjof' },
          role: { id: 'datacollector' },
        },
      ],
      publication_date: '2024-05-01',
      resource_type: { id: 'dataset', title: { en: 'Dataset', de: 'Datensatz' } },
      publisher: 'Cairn Polar Data',
      description: '<p>Cores drilled in <strong>2023</strong> &amp; 2024.</p>',
      subjects: [{ subject: 'glaciology' }, { subject: 'ice cores' }],
      languages: [{ id: 'eng', title: { en: 'English' } }],
      rights: [
        {
          id: 'cc-by-4.0',
          title: { en: 'Creative Commons Attribution 4.0 International' },
          props: { url: 'https://creativecommons.org/licenses/by/4.0/legalcode', scheme: 'spdx' },
        },
      ],
      related_identifiers: [
        {
          identifier: '10.1234/paper',
          scheme: 'doi',
          relation_type: { id: 'iscitedby' },
        },
      ],
      version: 'v1.2',
    },
    ...overrides,
  };
}

/**
 * A record with every field an export reads: many creators with ORCID and ROR, contributors in
 * several roles, every kind of date, identifier and relation, funding, locations, sizes and
 * formats, text in several scripts and characters XML and YAML must escape.
 */
export function richRecord(overrides: Partial<ExportRecord> = {}): ExportRecord {
  const base = record();
  return {
    ...base,
    parent: { id: 'zz99y-8xw77', pids: { doi: { identifier: '10.5072/zz99y-8xw77' } } },
    metadata: {
      ...base.metadata,
      title: 'Ice: "cores" & <layers> — Eisbohrkerne, 氷床コア, ледяные керны',
      additional_titles: [
        {
          title: 'Eisbohrkerne des Weddellmeers',
          type: { id: 'translated-title' },
          lang: { id: 'deu' },
        },
        { title: 'Part 2: the deep cores', type: { id: 'subtitle' } },
      ],
      creators: [
        ...base.metadata.creators,
        ...Array.from({ length: 6 }, (_, i) => ({
          person_or_org: {
            type: 'personal',
            name: `Ødegård-${i}, Åsa`,
            given_name: 'Åsa',
            family_name: `Ødegård-${i}`,
            identifiers: [
              { scheme: 'orcid', identifier: `0000-0002-1694-23${String(i).padStart(2, '0')}` },
            ],
          },
          affiliations: [
            { id: '032e6b942', name: 'Alfred Wegener Institute' },
            { name: 'Field station "Neumayer III"' },
          ],
        })),
        {
          person_or_org: {
            type: 'organizational',
            name: 'Polar Consortium: Ice & Snow',
            identifiers: [{ scheme: 'ror', identifier: '01ggx4157' }],
          },
        },
      ],
      contributors: [
        ...(base.metadata.contributors ?? []),
        {
          person_or_org: { type: 'personal', family_name: 'Amundsen', given_name: 'Roald' },
          role: { id: 'editor' },
        },
        {
          person_or_org: { type: 'organizational', name: 'Some host' },
          role: { id: 'hostinginstitution' },
        },
        {
          person_or_org: { type: 'personal', family_name: 'Nobody' },
          role: { id: 'no-such-role' },
        },
      ],
      description:
        '<p>Line one: colons, "quotes" &amp; \'apostrophes\'.</p><p>Second paragraph — 日本語, émigré.</p>',
      additional_descriptions: [
        {
          description: 'Thermal drill; see #methods.',
          type: { id: 'methods' },
          lang: { id: 'eng' },
        },
        { description: 'Unknown kind', type: { id: 'no-such-type' } },
      ],
      subjects: [
        { id: 'https://id.nlm.nih.gov/mesh/D007035', subject: 'Ice Cover', scheme: 'MeSH' },
        { subject: 'glaciology' },
        { subject: 'yes' },
        { subject: '- not a list: really' },
      ],
      dates: [
        { date: '2023-01-01/2023-02-28', type: { id: 'collected' }, description: 'Field season' },
        { date: '2024-06-01', type: { id: 'available' } },
        { date: '2020', type: { id: 'coverage' } },
      ],
      languages: [
        { id: 'eng', title: { en: 'English' } },
        { id: 'deu', title: { en: 'German' } },
      ],
      identifiers: [
        { scheme: 'ark', identifier: 'ark:/12345/x54xz321' },
        { scheme: 'url', identifier: 'https://example.org/cores' },
      ],
      related_identifiers: [
        {
          identifier: '10.1234/paper',
          scheme: 'doi',
          relation_type: { id: 'iscitedby' },
          resource_type: { id: 'publication-article' },
        },
        {
          identifier: 'https://github.com/polar/cores',
          scheme: 'url',
          relation_type: { id: 'issupplementto' },
        },
        { identifier: 'https://example.org/other', scheme: 'url', relation_type: { id: 'other' } },
        { identifier: 'swh:1:dir:abc', scheme: 'swh', relation_type: { id: 'references' } },
        { identifier: '2101.00001', scheme: 'arxiv', relation_type: { id: 'references' } },
      ],
      rights: [
        ...(base.metadata.rights ?? []),
        {
          id: 'mit',
          title: { en: 'MIT License' },
          props: { url: 'https://opensource.org/licenses/MIT', scheme: 'spdx' },
        },
        { title: { en: 'Custom terms' }, link: 'https://cairn.example/terms' },
      ],
      funding: [
        {
          funder: { id: '00k4n6c32', name: 'European Commission' },
          award: {
            number: '101000001',
            title: { en: 'Polar ice memory' },
            identifiers: [
              { scheme: 'url', identifier: 'https://cordis.europa.eu/project/id/101000001' },
            ],
          },
        },
        { funder: { id: '10.13039/501100001659', name: 'Deutsche Forschungsgemeinschaft' } },
        {
          funder: { name: 'A foundation without id' },
          award: {
            title: { en: 'Untitled grant' },
            identifiers: [{ scheme: 'url', identifier: 'https://example.org/grant' }],
          },
        },
      ],
      locations: {
        features: [
          { place: 'Weddell Sea', geometry: { type: 'Point', coordinates: [-45.5, -73.25] } },
          { place: 'Neumayer III' },
        ],
      },
      sizes: ['12 cores', '3 GB'],
      formats: ['text/csv', 'application/x-netcdf'],
      version: 'v2.0: "final"',
    },
    ...overrides,
  };
}

/** A record without a DOI, restricted to its owner, files and all. */
export function restrictedRecord(): ExportRecord {
  return richRecord({
    pids: {},
    access: {
      record: 'restricted',
      files: 'restricted',
      embargo: { active: false },
      status: 'restricted',
    },
  });
}

/** The DataCite kernel 4 schema Cairn's tests validate DataCite XML with. */
export const DATACITE_XSD = fileURLToPath(
  new URL('../modules/records/exports/schemas/datacite-kernel-4.xsd', import.meta.url),
);

/** xmllint run on a document given on its standard input. */
function runXmllint(xml: string, args: string[]): string {
  return execFileSync('xmllint', ['--nonet', ...args, '-'], {
    input: xml,
    stdio: ['pipe', 'pipe', 'pipe'],
  }).toString();
}

/**
 * xmllint's verdict on a document: well-formedness, and validity against `schema` when given.
 * Returns xmllint's messages, empty when it accepts the document.
 */
export function xmllint(xml: string, schema?: string): string {
  try {
    runXmllint(xml, ['--noout', ...(schema ? ['--schema', schema] : [])]);
    return '';
  } catch (error) {
    const e = error as { stderr?: Buffer; message: string };
    return e.stderr?.toString() || e.message;
  }
}

/**
 * What an XPath expression gives, as xmllint prints it; a string or a number without the line
 * break xmllint ends it with.
 */
export function xpath(xml: string, expression: string): string {
  const out = runXmllint(xml, ['--xpath', expression]);
  return /^(string|count)\(/.test(expression) ? out.replace(/\n$/, '') : out;
}

/** The string value of each node an XPath expression selects, in document order. */
export function xpathStrings(xml: string, expression: string): string[] {
  const count = Number(xpath(xml, `count(${expression})`));
  return Array.from({ length: count }, (_, i) => xpath(xml, `string((${expression})[${i + 1}])`));
}
