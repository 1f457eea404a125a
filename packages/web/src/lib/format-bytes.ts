import { intlLocale } from '@cairn/shared';

const UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte', 'petabyte'] as const;

/**
 * A size in decimal (SI) units, as InvenioRDM shows file sizes (1 kB = 1,000 bytes), worded by
 * `Intl` in the page's language: "1.5 GB" and "0 bytes" in English, "1,5 GB" and "0 Byte" in
 * German. Bytes are written out, as "B" reads like a typo next to a small number.
 */
export function formatBytes(bytes: number, locale = 'en'): string {
  const whole = Number.isFinite(bytes) ? Math.max(0, Math.trunc(bytes)) : 0;
  const exponent = whole < 1000 ? 0 : Math.min(Math.floor(Math.log10(whole) / 3), UNITS.length - 1);
  const value = whole / 1000 ** exponent;
  return new Intl.NumberFormat(intlLocale(locale), {
    style: 'unit',
    unit: UNITS[exponent],
    unitDisplay: exponent === 0 ? 'long' : 'short',
    maximumFractionDigits: exponent === 0 ? 0 : value < 10 ? 2 : 1,
  }).format(value);
}
