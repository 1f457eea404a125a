import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Highlighted, highlightRanges } from './highlight';

function marked(text: string, words: string[], prefixes: string[] = []): string[] {
  return highlightRanges(text, { words, prefixes }).map(([start, end]) => text.slice(start, end));
}

describe('highlightRanges', () => {
  it('marks whole words only, whatever their case', () => {
    expect(marked('Glacier glaciers, the GLACIER.', ['glacier'])).toEqual(['Glacier', 'GLACIER']);
  });

  it('marks words with or without their accents, as the search folds them', () => {
    expect(marked('Müller and Muller on the Zürichsee', ['muller', 'zurichsee'])).toEqual([
      'Müller',
      'Muller',
      'Zürichsee',
    ]);
    // Decomposed accents (a letter then a combining mark) end the mark after the mark.
    const decomposed = 'Mu\u0308ller wrote';
    expect(marked(decomposed, ['müller'])).toEqual(['Mu\u0308ller']);
  });

  it('marks a phrase across any spacing, and the longer of two overlapping terms', () => {
    expect(marked('The ice  sheet and the ice', ['ice', 'ice sheet'])).toEqual([
      'ice  sheet',
      'ice',
    ]);
  });

  it('marks whole words that begin with a prefix', () => {
    expect(marked('Glaciology of glaciers, not subglacial', [], ['glaci'])).toEqual([
      'Glaciology',
      'glaciers',
    ]);
  });

  it('treats the terms as text, not as patterns', () => {
    expect(marked('C++ and (a|b) and C', ['c++', '(a|b)'])).toEqual(['C++', '(a|b)']);
  });
});

describe('Highlighted', () => {
  it('wraps each match in <mark> and keeps the rest of the text as it is', () => {
    const { container } = render(
      <p>
        <Highlighted text="Ice cores from the ice sheet" terms={{ words: ['ice'], prefixes: [] }} />
      </p>,
    );
    expect(container.querySelector('p')?.innerHTML).toBe(
      '<mark>Ice</mark> cores from the <mark>ice</mark> sheet',
    );
  });
});
