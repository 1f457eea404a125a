/** Today in the person's time zone as `YYYY-MM-DD`, the form embargo dates are compared in. */
export function todayIso(now: Date = new Date()): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/**
 * A `YYYY-MM-DD` day in the locale's full form ("Friday, 1 January 2100"), as InvenioRDM's
 * DATE_FULL; undefined when there is no valid day to show.
 */
export function formatLongDate(day: string | undefined, locale: string): string | undefined {
  if (!day || !/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const date = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(date.getTime())) return undefined;
  // The day is a calendar day, not an instant: formatting in UTC keeps it from shifting.
  return new Intl.DateTimeFormat(locale.replace('_', '-'), {
    dateStyle: 'full',
    timeZone: 'UTC',
  }).format(date);
}
