const UNITS = ['bytes', 'kB', 'MB', 'GB', 'TB', 'PB'];

/** A size in decimal (SI) units, as InvenioRDM shows file sizes: 1 kB = 1,000 bytes. */
export function formatBytes(bytes: number, locale = 'en'): string {
  if (!Number.isFinite(bytes) || bytes < 1000) return `${Math.max(0, bytes | 0)} bytes`;
  const exponent = Math.min(Math.floor(Math.log10(bytes) / 3), UNITS.length - 1);
  const value = bytes / 1000 ** exponent;
  const text = new Intl.NumberFormat(locale, { maximumFractionDigits: value < 10 ? 2 : 1 }).format(
    value,
  );
  return `${text} ${UNITS[exponent]}`;
}
