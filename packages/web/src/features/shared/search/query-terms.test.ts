import { describe, expect, it } from 'vitest';
import { highlightTermsOf } from './query-terms';

describe('highlightTermsOf', () => {
  it('takes bare words and phrases, and the stems of trailing wildcards', () => {
    expect(highlightTermsOf('glacier "ice sheet" glaci*')).toEqual({
      words: ['glacier', 'ice sheet'],
      prefixes: ['glaci'],
    });
  });

  it('leaves out operators, exclusions, field terms, ranges and inner wildcards', () => {
    expect(
      highlightTermsOf(
        'glacier AND NOT arctic -moraine !snow metadata.title:ice ' +
          'metadata.publication_date:[2019 TO 2021] gl?cier g*r OR firn',
      ),
    ).toEqual({ words: ['glacier', 'firn'], prefixes: [] });
  });

  it('skips a field’s grouped or quoted value, and keeps what follows it', () => {
    expect(
      highlightTermsOf('title:(ice OR (snow AND firn)) creators:"Lovelace, Ada" (melt OR thaw)'),
    ).toEqual({ words: ['melt', 'thaw'], prefixes: [] });
  });

  it('keeps the word of a fuzzy or boosted term, and a phrase left open', () => {
    expect(highlightTermsOf('glacier~1 moraine^2 "ice sheet')).toEqual({
      words: ['glacier', 'moraine', 'ice sheet'],
      prefixes: [],
    });
  });

  it('finds nothing in an empty query or in punctuation alone', () => {
    expect(highlightTermsOf('')).toEqual({ words: [], prefixes: [] });
    expect(highlightTermsOf('( ) * "" -')).toEqual({ words: [], prefixes: [] });
  });
});
