import { describe, expect, it } from 'vitest';
import { formatCitation } from './format-citation';

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

describe('formatCitation', () => {
  it.each([
    [
      'apa',
      'Lovelace, A. & Polar Institute. (2024). Seabird colony counts (Version v2) [Data set]. Cairn. https://doi.org/10.5072/ab12c-3de45',
    ],
    [
      'harvard',
      'Lovelace, A. and Polar Institute (2024) “Seabird colony counts.” Cairn. doi:10.5072/ab12c-3de45.',
    ],
    [
      'chicago',
      'Lovelace, Ada and Polar Institute. 2024. Seabird colony counts. Version v2. Cairn. https://doi.org/10.5072/ab12c-3de45.',
    ],
    [
      'ieee',
      '[1] A. Lovelace and Polar Institute, “Seabird colony counts,” version v2, Cairn, 2024. doi: 10.5072/ab12c-3de45',
    ],
  ] as const)('formats %s', (style, expected) => {
    expect(formatCitation(CSL, style)).toBe(expected);
  });
});
