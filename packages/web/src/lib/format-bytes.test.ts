import { describe, expect, it } from 'vitest';
import { formatBytes } from './format-bytes';

describe('formatBytes', () => {
  it.each([
    [0, 'en_US', '0 bytes'],
    [0, 'de', '0 Byte'],
    [1, 'en_US', '1 byte'],
    [999, 'de', '999 Byte'],
    [1500, 'en_US', '1.5 kB'],
    [1500, 'de', '1,5 kB'],
    // German keeps "10" and "GB" together on one line (a no-break space), as ICU words it.
    [10_000_000_000, 'de', '10\u00a0GB'],
    [123_456_789, 'de', '123,5 MB'],
  ])('words %d bytes in %s as %s', (bytes, locale, expected) => {
    expect(formatBytes(bytes, locale)).toBe(expected);
  });
});
