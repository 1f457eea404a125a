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
