/**
 * An OAI-PMH request's arguments, checked as the protocol's version 2.0 defines them: which
 * arguments each verb takes, which it requires, that `resumptionToken` is exclusive, that no
 * argument is repeated, and the two datestamp granularities. Hand-written because no maintained
 * npm package implements the repository side of the protocol; the rules are few and closed.
 */

export const VERBS = [
  'Identify',
  'ListMetadataFormats',
  'ListSets',
  'ListIdentifiers',
  'ListRecords',
  'GetRecord',
] as const;
export type Verb = (typeof VERBS)[number];

export type OaiErrorCode =
  | 'badArgument'
  | 'badResumptionToken'
  | 'badVerb'
  | 'cannotDisseminateFormat'
  | 'idDoesNotExist'
  | 'noRecordsMatch'
  | 'noMetadataFormats'
  | 'noSetHierarchy';

export interface OaiError {
  code: OaiErrorCode;
  message: string;
}

/** The arguments a verb takes: required ones, optional ones, and the exclusive token. */
const ARGUMENTS: Record<Verb, { required: string[]; optional: string[]; token: boolean }> = {
  Identify: { required: [], optional: [], token: false },
  ListMetadataFormats: { required: [], optional: ['identifier'], token: false },
  ListSets: { required: [], optional: [], token: true },
  ListIdentifiers: {
    required: ['metadataPrefix'],
    optional: ['from', 'until', 'set'],
    token: true,
  },
  ListRecords: { required: ['metadataPrefix'], optional: ['from', 'until', 'set'], token: true },
  GetRecord: { required: ['identifier', 'metadataPrefix'], optional: [], token: false },
};

export interface OaiRequest {
  verb: Verb;
  /** Every argument but the verb, one value each. */
  args: Readonly<Record<string, string>>;
}

/** What a request asked, well formed or not: the errors name what was wrong. */
export type ParsedRequest = { ok: true; request: OaiRequest } | { ok: false; errors: OaiError[] };

/** Reads the arguments of a query string or a form-encoded body. */
export function parseOaiRequest(encoded: string): ParsedRequest {
  const values = new Map<string, string[]>();
  for (const [key, value] of new URLSearchParams(encoded)) {
    values.set(key, [...(values.get(key) ?? []), value]);
  }
  const verbs = values.get('verb') ?? [];
  if (verbs.length !== 1 || !(VERBS as readonly string[]).includes(verbs[0]!)) {
    const message =
      verbs.length === 0
        ? 'The request names no verb.'
        : verbs.length > 1
          ? 'The verb argument is repeated.'
          : `"${verbs[0]}" is not an OAI-PMH verb.`;
    return { ok: false, errors: [{ code: 'badVerb', message }] };
  }
  const verb = verbs[0] as Verb;
  const rule = ARGUMENTS[verb];
  const errors: OaiError[] = [];
  const args: Record<string, string> = {};
  for (const [key, list] of values) {
    if (key === 'verb') continue;
    const allowed =
      rule.required.includes(key) ||
      rule.optional.includes(key) ||
      (rule.token && key === 'resumptionToken');
    if (!allowed) errors.push(bad(`${verb} takes no argument "${key}".`));
    else if (list.length > 1) errors.push(bad(`The argument "${key}" is repeated.`));
    else args[key] = list[0]!;
  }
  if (args.resumptionToken !== undefined) {
    const others = Object.keys(args).filter((k) => k !== 'resumptionToken');
    if (others.length > 0)
      errors.push(
        bad(`resumptionToken is an exclusive argument; "${others.join('", "')}" given too.`),
      );
  } else {
    for (const key of rule.required)
      if (args[key] === undefined) errors.push(bad(`${verb} requires the argument "${key}".`));
    errors.push(...datesErrors(args.from, args.until));
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, request: { verb, args } };
}

function bad(message: string): OaiError {
  return { code: 'badArgument', message };
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const SECONDS = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})Z$/;

/** The instant a datestamp argument names, at its own granularity; undefined if it is no datestamp. */
function instant(value: string): { at: Date; granularity: 'day' | 'seconds' } | undefined {
  const granularity = DAY.test(value) ? 'day' : SECONDS.test(value) ? 'seconds' : undefined;
  if (!granularity) return undefined;
  const at = new Date(granularity === 'day' ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(at.getTime())) return undefined;
  // Date accepts 2024-02-30 by rolling over; a datestamp must name a real day and time.
  const back = at.toISOString().slice(0, value.length - (granularity === 'seconds' ? 1 : 0));
  if (back !== value.replace(/Z$/, '')) return undefined;
  return { at, granularity };
}

function datesErrors(from: string | undefined, until: string | undefined): OaiError[] {
  const errors: OaiError[] = [];
  const f = from === undefined ? undefined : instant(from);
  const u = until === undefined ? undefined : instant(until);
  const format = 'YYYY-MM-DD or YYYY-MM-DDThh:mm:ssZ';
  if (from !== undefined && !f) errors.push(bad(`from "${from}" is not a datestamp (${format}).`));
  if (until !== undefined && !u)
    errors.push(bad(`until "${until}" is not a datestamp (${format}).`));
  if (f && u) {
    if (f.granularity !== u.granularity)
      errors.push(bad('from and until must have the same granularity.'));
    else if (f.at > u.at) errors.push(bad('from must not be later than until.'));
  }
  return errors;
}

/** The inclusive lower bound on a record's last change that `from` names. */
export function fromBound(from: string): string {
  return instant(from)!.at.toISOString();
}

/** The exclusive upper bound that `until` names: the end of its day or of its second. */
export function untilBound(until: string): string {
  const { at, granularity } = instant(until)!;
  const step = granularity === 'day' ? 86_400_000 : 1000;
  return new Date(at.getTime() + step).toISOString();
}

/** A stored timestamp as an OAI-PMH datestamp of the repository's granularity (seconds). */
export function datestamp(iso: string): string {
  return `${iso.slice(0, 19)}Z`;
}
