import { describe, expect, it } from 'vitest';
import {
  detectSchemes,
  isHttpUrl,
  isValidIdentifier,
  normalizeDoi,
  normalizeIdentifier,
  schemesByShape,
} from './identifiers.js';

describe('detectSchemes', () => {
  it.each([
    ['10.1234/foo.bar', ['doi']],
    ['doi:10.1234/x', ['doi']],
    ['https://doi.org/10.1234/x', ['doi', 'url']],
    ['0000-0002-1825-0097', ['orcid', 'isni']],
    ['https://orcid.org/0000-0002-1825-0097', ['orcid', 'url']],
    ['0000 0001 2103 2683', ['isni']],
    ['01ggx4157', ['ror']],
    ['https://ror.org/01ggx4157', ['ror', 'url']],
    ['978-3-16-148410-0', ['isbn']],
    ['0317-8471', ['issn']],
    ['gnd:4074335-4', ['gnd']],
    ['arXiv:1310.2590', ['arxiv']],
    ['hep-th/9901001', ['arxiv']],
    ['ark:/13030/tf5p30086k', ['ark']],
    ['hdl:2286.9/4uu', ['handle']],
    ['urn:nbn:de:101:1-201102033592', ['urn']],
    ['urn:lsid:ubio.org:namebank:11815', ['lsid', 'urn']],
    ['http://purl.org/dc/terms', ['purl', 'url']],
    ['https://example.org/data', ['url']],
    ['12345678', ['pmid']],
    ['Q42', ['wikidata']],
    ['RRID:AB_2178887', ['rrid']],
    ['CSTR:31253.11.sciencedb.j00001.00123', ['cstr']],
    ['grid.1034.6', ['grid']],
    ['2011ApJS..192...18K', ['ads']],
  ])('recognises %s as %j', (value, schemes) => {
    expect(detectSchemes(value)).toEqual(schemes);
  });

  it('recognises nothing in free text or a blank value', () => {
    expect(detectSchemes('not an identifier')).toEqual([]);
    expect(detectSchemes('   ')).toEqual([]);
  });

  it('does not read a check-digited ORCID as an ISBN, GND or PubMed id', () => {
    const schemes = detectSchemes('0000000218250097');
    expect(schemes).toContain('orcid');
    expect(schemes).not.toContain('gnd');
    expect(schemes).not.toContain('pmid');
  });
});

describe('isValidIdentifier', () => {
  it('checks the ORCID check digit and block (ISO 7064 11,2)', () => {
    expect(isValidIdentifier('orcid', '0000-0002-1825-0097')).toBe(true);
    expect(isValidIdentifier('orcid', 'https://orcid.org/0000-0002-1825-0097')).toBe(true);
    expect(isValidIdentifier('orcid', '0000-0002-1694-233X')).toBe(true);
    expect(isValidIdentifier('orcid', '0000-0002-1825-0098')).toBe(false);
    // A valid ISNI outside the ORCID blocks is not an ORCID.
    expect(isValidIdentifier('isni', '0000 0001 2103 2683')).toBe(true);
    expect(isValidIdentifier('orcid', '0000 0001 2103 2683')).toBe(false);
  });

  it('checks the ISNI check digit', () => {
    expect(isValidIdentifier('isni', '0000000121032683')).toBe(true);
    expect(isValidIdentifier('isni', '0000000121032684')).toBe(false);
  });

  it("checks ROR's two-digit checksum and alphabet", () => {
    expect(isValidIdentifier('ror', '01ggx4157')).toBe(true);
    expect(isValidIdentifier('ror', 'https://ror.org/01ggx4157')).toBe(true);
    expect(isValidIdentifier('ror', '01ggx4158')).toBe(false);
    expect(isValidIdentifier('ror', '0iggx4157')).toBe(false);
    expect(isValidIdentifier('ror', '1ggx41570')).toBe(false);
  });

  it('checks ISBN-10 and ISBN-13 check digits', () => {
    expect(isValidIdentifier('isbn', '978-3-16-148410-0')).toBe(true);
    expect(isValidIdentifier('isbn', '9783161484100')).toBe(true);
    expect(isValidIdentifier('isbn', '0-06-251587-X')).toBe(true);
    expect(isValidIdentifier('isbn', 'ISBN 978-3-16-148410-0')).toBe(true);
    expect(isValidIdentifier('isbn', '978-3-16-148410-1')).toBe(false);
    expect(isValidIdentifier('isbn', '0-06-251587-1')).toBe(false);
    // A valid EAN-13 outside the book prefixes is not an ISBN.
    expect(isValidIdentifier('isbn', '4006381333931')).toBe(false);
  });

  it('checks the ISSN check digit, for every ISSN flavour', () => {
    expect(isValidIdentifier('issn', '0317-8471')).toBe(true);
    expect(isValidIdentifier('issn', '03178471')).toBe(true);
    expect(isValidIdentifier('eissn', '2049-3630')).toBe(true);
    expect(isValidIdentifier('lissn', '0317-8471')).toBe(true);
    expect(isValidIdentifier('issn', '0317-8472')).toBe(false);
    expect(isValidIdentifier('issn', '0317-847')).toBe(false);
  });

  it('checks DOIs with and without prefixes', () => {
    expect(isValidIdentifier('doi', '10.1234/foo.bar')).toBe(true);
    expect(isValidIdentifier('doi', 'doi:10.1234/x')).toBe(true);
    expect(isValidIdentifier('doi', 'https://doi.org/10.1234/x')).toBe(true);
    expect(isValidIdentifier('doi', 'http://dx.doi.org/10.1234/x')).toBe(true);
    expect(isValidIdentifier('doi', '10.1234')).toBe(false);
    expect(isValidIdentifier('doi', '11.1234/x')).toBe(false);
    expect(isValidIdentifier('doi', '10.1234/has space')).toBe(false);
  });

  it('checks the other structured schemes', () => {
    expect(isValidIdentifier('gnd', 'gnd:4074335-4')).toBe(true);
    expect(isValidIdentifier('gnd', 'http://d-nb.info/gnd/118540238X')).toBe(true);
    expect(isValidIdentifier('gnd', 'gnd:abc')).toBe(false);
    expect(isValidIdentifier('url', 'https://example.org/x?y=1')).toBe(true);
    expect(isValidIdentifier('url', 'example.org')).toBe(false);
    expect(isValidIdentifier('arxiv', 'arXiv:1310.2590v2')).toBe(true);
    expect(isValidIdentifier('arxiv', '1310.25')).toBe(false);
    expect(isValidIdentifier('pmid', '12345678')).toBe(true);
    expect(isValidIdentifier('pmid', 'PMC123')).toBe(false);
    expect(isValidIdentifier('wikidata', 'Q42')).toBe(true);
    expect(isValidIdentifier('wikidata', 'P42')).toBe(false);
    expect(isValidIdentifier('istc', '0A9 2002 12B4A105 7')).toBe(true);
    expect(isValidIdentifier('istc', '0A9 2002 12B4A105 8')).toBe(false);
  });

  it('accepts any non-blank value for schemes InvenioRDM does not check', () => {
    for (const scheme of ['upc', 'igsn', 'crossreffunderid', 'grid', 'other'] as const) {
      expect(isValidIdentifier(scheme, 'anything')).toBe(true);
      expect(isValidIdentifier(scheme, '  ')).toBe(false);
    }
  });
});

describe('normalizeDoi', () => {
  it.each([
    ['10.1234/foo.bar', '10.1234/foo.bar'],
    ['doi:10.1234/x', '10.1234/x'],
    ['DOI: 10.1234/x', '10.1234/x'],
    ['https://doi.org/10.1234/x', '10.1234/x'],
    ['http://dx.doi.org/10.1234/X', '10.1234/X'],
    ['  10.1234/x  ', '10.1234/x'],
  ])('%s → %s', (value, expected) => {
    expect(normalizeDoi(value)).toBe(expected);
  });

  it('is undefined for a value that is not a DOI', () => {
    expect(normalizeDoi('https://example.org/10.1234/x')).toBeUndefined();
    expect(normalizeDoi('not a doi')).toBeUndefined();
  });
});

describe('normalizeIdentifier', () => {
  it.each([
    ['doi', 'https://doi.org/10.1234/x', '10.1234/x'],
    ['orcid', '0000000218250097', '0000-0002-1825-0097'],
    ['orcid', 'https://orcid.org/0000-0002-1694-233x', '0000-0002-1694-233X'],
    ['ror', 'https://ror.org/01GGX4157', '01ggx4157'],
    ['gnd', '4074335-4', 'gnd:4074335-4'],
    ['gnd', 'http://d-nb.info/gnd/118540238X', 'gnd:118540238X'],
    ['issn', '03178471', '0317-8471'],
    ['handle', 'hdl:2286.9/4uu', '2286.9/4uu'],
    ['pmid', 'pmid:12345', '12345'],
    ['arxiv', '1310.2590', 'arXiv:1310.2590'],
    ['arxiv', 'arxiv:math.GT/0309136', 'arXiv:math/0309136'],
    ['urn', 'URN:nbn:de:101:1-201102033592', 'urn:nbn:de:101:1-201102033592'],
    ['isbn', ' 978-3-16-148410-0 ', '978-3-16-148410-0'],
  ] as const)('%s %s → %s', (scheme, value, expected) => {
    expect(normalizeIdentifier(scheme, value)).toBe(expected);
  });

  it('leaves an invalid value as typed (trimmed)', () => {
    expect(normalizeIdentifier('orcid', ' 0000-0002-1825-0098 ')).toBe('0000-0002-1825-0098');
  });
});

describe('schemesByShape', () => {
  it('recognises what a value was meant to be, ignoring check digits', () => {
    expect(schemesByShape('0000-0002-1825-0098')).toEqual(['orcid', 'isni']);
    expect(schemesByShape('https://ror.org/01ggx4158')).toEqual(['ror']);
    expect(schemesByShape('978-3-16-148410-1')).toEqual(['isbn']);
    expect(schemesByShape('0317-8472')).toEqual(['issn', 'eissn', 'lissn']);
    expect(schemesByShape('gnd:nonsense')).toEqual(['gnd']);
    expect(schemesByShape('Marie Curie')).toEqual([]);
  });
});

describe('isHttpUrl', () => {
  it.each([
    'https://example.org',
    'http://example.org/path?q=1#f',
    'https://localhost:8080/x',
    'https://münchen.de',
  ])('accepts %s', (value) => {
    expect(isHttpUrl(value)).toBe(true);
  });

  it.each([
    'example.org',
    'ftp://example.org',
    'https://',
    'https://nodot',
    'https://exa mple.org',
    'javascript:alert(1)',
  ])('rejects %s', (value) => {
    expect(isHttpUrl(value)).toBe(false);
  });
});
