/**
 * Dates as InvenioRDM accepts them: EDTF level 0 without times (`YYYY`, `YYYY-MM`, `YYYY-MM-DD`)
 * and closed intervals of two such dates.
 */

const DATE_PATTERN = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/;
const ISO_DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** The earliest and latest day a reduced-precision date can mean, as comparable YYYY-MM-DD. */
interface DateBounds {
  lower: string;
  upper: string;
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

function parseDate(value: string): DateBounds | undefined {
  const match = DATE_PATTERN.exec(value);
  if (match === null) return undefined;
  const [, yearText, monthText, dayText] = match;
  const year = Number(yearText);
  if (monthText === undefined) {
    return { lower: `${yearText}-01-01`, upper: `${yearText}-12-31` };
  }
  const month = Number(monthText);
  if (month < 1 || month > 12) return undefined;
  const lastDay = daysInMonth(year, month);
  if (dayText === undefined) {
    return { lower: `${yearText}-${monthText}-01`, upper: `${yearText}-${monthText}-${lastDay}` };
  }
  const day = Number(dayText);
  if (day < 1 || day > lastDay) return undefined;
  return { lower: value, upper: value };
}

/**
 * What is wrong with an EDTF date or interval: `invalid` when it is not one of the forms below,
 * `reversed` for a well-formed interval whose end lies before its start (said apart, since
 * someone who typed `1945/1939` has a date in the right form and needs to be told which part to
 * fix), undefined when it is fine.
 *
 * Accepted: `YYYY`, `YYYY-MM`, `YYYY-MM-DD` (a real calendar day) and, unless `allowInterval` is
 * false, `DATE/DATE` where the start can precede the end (`2020-06/2020` is fine, `1945/1939`
 * is not). Intervals are allowed by default because publication dates and date entries take them;
 * pass `allowInterval: false` for single dates such as a thesis defence.
 */
export function edtfProblem(
  value: string,
  opts?: { allowInterval?: boolean },
): 'invalid' | 'reversed' | undefined {
  const slash = value.indexOf('/');
  if (slash === -1) return parseDate(value) === undefined ? 'invalid' : undefined;
  if (opts?.allowInterval === false) return 'invalid';
  const start = parseDate(value.slice(0, slash));
  const end = parseDate(value.slice(slash + 1));
  if (start === undefined || end === undefined) return 'invalid';
  // EDTF compares the earliest day the start can mean with the latest day the end can mean.
  return start.lower <= end.upper ? undefined : 'reversed';
}

/** True when `edtfProblem` finds nothing wrong with `value`. */
export function isEdtfDate(value: string, opts?: { allowInterval?: boolean }): boolean {
  return edtfProblem(value, opts) === undefined;
}

/** True for a full calendar day `YYYY-MM-DD`, the only form an embargo end date takes. */
export function isIsoDay(value: string): boolean {
  return ISO_DAY_PATTERN.test(value) && parseDate(value) !== undefined;
}

/**
 * A language tag `Intl` accepts: the site writes locales as i18next and InvenioRDM do (`en_US`),
 * which `Intl` refuses with a RangeError.
 */
export function intlLocale(locale: string): string {
  return locale.replaceAll('_', '-');
}

/**
 * An EDTF date or interval in words of `locale`, each end to the precision it was given (a year
 * stays a year, a month is named with its year): "26 November 2026", "Nov 2020 – 2021". What is
 * not a date is shown as it is.
 */
export function formatEdtfDate(value: string, locale: string, style: 'medium' | 'long'): string {
  const tag = intlLocale(locale);
  const one = (part: string) => {
    const match = DATE_PATTERN.exec(part);
    if (match === null) return part;
    const [, year, month, day] = match;
    if (month === undefined) return String(Number(year));
    // Midday UTC, read in UTC: the day is the same wherever the reader is.
    const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day ?? 1), 12));
    if (Number.isNaN(date.getTime())) return part;
    return day === undefined
      ? new Intl.DateTimeFormat(tag, {
          year: 'numeric',
          month: style === 'long' ? 'long' : 'short',
          timeZone: 'UTC',
        }).format(date)
      : new Intl.DateTimeFormat(tag, { dateStyle: style, timeZone: 'UTC' }).format(date);
  };
  return value.split('/').map(one).join(' – ');
}
