import LinkHeader from 'http-link-header';
import { describe, expect, it } from 'vitest';
import type { ExportContext, ExportRecord } from './exports/export-record.js';
import { linkset, linksetText, signpostingHeader, typedLink } from './signposting.js';

const CTX: ExportContext = {
  siteUrl: 'https://cairn.test/',
  siteName: 'Cairn',
  vocab: () => undefined,
};

/** A public record whose DOI, licence link and file name hold what a URI may not. */
function record(): ExportRecord {
  return {
    id: 'abcde-12345',
    pids: { doi: { identifier: '10.1234/a<b>c "d"#1?x=%', provider: 'external' } },
    access: { record: 'public', files: 'public', embargo: { active: false } },
    files: {
      enabled: true,
      entries: { 'a>b, c.csv': { key: 'a>b, c.csv', size: 3, mimetype: 'text/csv' } },
    },
    metadata: {
      title: 'Odd identifiers',
      publication_date: '2024',
      resource_type: { id: 'dataset' },
      creators: [
        {
          person_or_org: {
            type: 'personal',
            family_name: 'Carberry',
            identifiers: [{ scheme: 'orcid', identifier: 'https://orcid.org/0000-0002-1825-0097' }],
          },
        },
      ],
      rights: [{ title: { en: 'Odd' }, link: 'https://example.org/licence <v1>, "final"' }],
    },
  };
}

describe('signposting links', () => {
  it('percent-encodes what would break a Link header, so a parser reads every link whole', () => {
    const header = signpostingHeader(record(), CTX, 100);
    const links = LinkHeader.parse(header);
    expect(links.rel('cite-as').map((l) => l.uri)).toEqual([
      'https://doi.org/10.1234/a%3Cb%3Ec%20%22d%22%231%3Fx=%25',
    ]);
    expect(links.rel('license').map((l) => l.uri)).toEqual([
      'https://example.org/licence%20%3Cv1%3E,%20%22final%22',
    ]);
    expect(links.rel('item').map((l) => l.uri)).toEqual([
      'https://cairn.test/api/records/abcde-12345/files/a%3Eb%2C%20c.csv/content',
    ]);
    expect(links.rel('author').map((l) => l.uri)).toEqual([
      'https://orcid.org/0000-0002-1825-0097',
    ]);
    // No link lost or split: the parser finds as many as were written.
    expect(links.refs).toHaveLength(header.split(', <').length);
  });

  it('gives the linkset the same links in its JSON and text forms', () => {
    const set = linkset(record(), CTX);
    const text = LinkHeader.parse(linksetText(set));
    const json = set.linkset.flatMap(({ anchor, ...rels }) =>
      Object.values(rels).flatMap((targets) => (targets as unknown[]).map(() => anchor)),
    );
    expect(text.refs.map((l) => l.anchor)).toEqual(json);
  });

  it('lists no files or authors in the header when the setting is 0, and the rest all the same', () => {
    const header = signpostingHeader(record(), CTX, 0);
    const links = LinkHeader.parse(header);
    expect(links.rel('item')).toEqual([]);
    expect(links.rel('author')).toEqual([]);
    expect(links.rel('cite-as')).toHaveLength(1);
  });

  it('splits a media type with a profile into its type and the profile, an array as RFC 9264 wants', () => {
    expect(
      typedLink('https://x.test/m', 'application/ld+json;profile="https://w3id.org/ro/crate"'),
    ).toEqual({
      href: 'https://x.test/m',
      type: 'application/ld+json',
      profile: ['https://w3id.org/ro/crate'],
    });
    expect(typedLink('https://x.test/m', 'application/x-bibtex')).toEqual({
      href: 'https://x.test/m',
      type: 'application/x-bibtex',
    });
  });
});
