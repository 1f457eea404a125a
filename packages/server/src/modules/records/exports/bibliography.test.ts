import { describe, expect, it } from 'vitest';
import { AppError } from '../../../errors.js';
import { formatBibliography } from './bibliography.js';

// CSL-JSON as GET /api/records/{id} exports it (application/vnd.citationstyles.csl+json).
const CSL = {
  id: 'ab12c-3de45',
  type: 'dataset',
  title: 'Seabird colony counts',
  author: [{ family: 'Lovelace', given: 'Ada' }, { literal: 'Polar Institute' }],
  issued: { 'date-parts': [[2024, 5, 1]] },
  DOI: '10.5072/ab12c-3de45',
  URL: 'https://doi.org/10.5072/ab12c-3de45',
  publisher: 'Cairn',
  version: 'v2',
};

describe('formatBibliography', () => {
  it.each([
    [
      'apa',
      'Lovelace, A. & Polar Institute. (2024). Seabird colony counts (Version v2) [Data set]. Cairn. https://doi.org/10.5072/ab12c-3de45',
    ],
    [
      'harvard1',
      'Lovelace, A. and Polar Institute (2024) “Seabird colony counts.” Cairn. doi:10.5072/ab12c-3de45.',
    ],
    [
      'chicago-author-date',
      'Lovelace, Ada and Polar Institute. 2024. Seabird colony counts. Version v2. Cairn. https://doi.org/10.5072/ab12c-3de45.',
    ],
    [
      'ieee',
      '[1] A. Lovelace and Polar Institute, “Seabird colony counts,” version v2, Cairn, 2024. doi: 10.5072/ab12c-3de45',
    ],
  ] as const)('formats %s', (style, expected) => {
    expect(formatBibliography(CSL, style, undefined)).toBe(expected);
  });

  it('formats Harvard when no style is named, as InvenioRDM does', () => {
    expect(formatBibliography(CSL, undefined, undefined)).toBe(
      formatBibliography(CSL, 'harvard1', undefined),
    );
  });

  it("takes InvenioRDM's style names whatever their case", () => {
    expect(formatBibliography(CSL, 'Harvard-Cite-Them-Right', undefined)).toBe(
      formatBibliography(CSL, 'harvard1', undefined),
    );
    expect(formatBibliography(CSL, 'vancouver', undefined)).toBe(
      '1. Lovelace A, Polar Institute. Seabird colony counts [Internet]. Cairn; 2024. Available from: https://doi.org/10.5072/ab12c-3de45',
    );
  });

  it("uses the locale's terms where there are some, and the style's own otherwise", () => {
    const german = 'Lovelace, A. und Polar Institute (2024) „Seabird colony counts“. Cairn.';
    expect(formatBibliography(CSL, 'harvard1', 'de-DE')).toContain(german);
    expect(formatBibliography(CSL, 'harvard1', 'de_DE')).toContain(german);
    // A page's language, as a browser names it.
    expect(formatBibliography(CSL, 'harvard1', 'de')).toContain(german);
    expect(formatBibliography(CSL, 'harvard1', 'tlh-KL')).toBe(
      formatBibliography(CSL, 'harvard1', 'en-US'),
    );
  });

  it('refuses a style it does not know with InvenioRDM’s message', () => {
    let refused: unknown;
    try {
      formatBibliography(CSL, 'nature', undefined);
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ status: 400, message: 'Citation string style not found.' });
    // Names every object answers to are no styles either.
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty'])
      expect(() => formatBibliography(CSL, name, undefined), name).toThrow(
        'Citation string style not found.',
      );
  });
});
