import { describe, expect, it } from 'vitest';
import {
  compactIdentifier,
  normaliseSearchText,
  normaliseSearchTextByDefinition,
} from './search-text.js';

describe('normaliseSearchText', () => {
  it('folds case, accents and separators', () => {
    expect(normaliseSearchText('  Müller-Lüdenscheidt, Anna  ')).toBe('muller ludenscheidt anna');
    expect(normaliseSearchText('Straße ½ CC-BY 4.0')).toBe('strasse 1 2 cc by 4 0');
    expect(normaliseSearchText('ΟΔΟΣ Σοφίας')).toBe('οδος σοφιας');
    expect(normaliseSearchText('İstanbul Łódź')).toBe('istanbul łodz');
    expect(normaliseSearchText('Zoë 😀 Chloé')).toBe('zoe chloe');
    expect(normaliseSearchText('---')).toBe('');
  });

  it('agrees with its definition for every character of the BMP, alone and between others', () => {
    const differing: string[] = [];
    for (let c = 0; c < 0x10000; c++) {
      const char = String.fromCharCode(c);
      for (const text of [char, `a${char}b`, `Ab ${char}${char}. x`, `${char}Σ`, `É${char}̈ `]) {
        if (normaliseSearchText(text) !== normaliseSearchTextByDefinition(text)) {
          differing.push(`U+${c.toString(16).padStart(4, '0')} in ${JSON.stringify(text)}`);
        }
      }
    }
    expect(differing).toEqual([]);
  });

  it('agrees with its definition on mixed text', () => {
    // A seeded mix of letters, marks, separators, compatibility forms and astral characters.
    const alphabet = [...'aZ9 -,.ßẞİıΣσςϹÅå\u0301\u0308ﬁ½⑴Ǆ한글\u1100\u1161日本ﾃｽﾄ😀\u{1d400}'];
    let seed = 7;
    const random = () =>
      ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * alphabet.length;
    for (let n = 0; n < 20_000; n++) {
      let text = '';
      for (let k = Math.floor(random() / 2); k > 0; k--) text += alphabet[Math.floor(random())];
      expect(normaliseSearchText(text), JSON.stringify(text)).toBe(
        normaliseSearchTextByDefinition(text),
      );
    }
  });
});

describe('compactIdentifier', () => {
  it('keeps only letters and digits, without resolver prefixes', () => {
    expect(compactIdentifier(' https://orcid.org/0000-0002-1825-009X ')).toBe('000000021825009x');
    expect(compactIdentifier('ror:01ggx4157')).toBe('01ggx4157');
    expect(compactIdentifier('Ünï-42')).toBe('ünï42');
  });
});
