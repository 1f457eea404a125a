import { TITLE_MIN_LENGTH, VERSION_MAX_LENGTH } from '../limits.js';

/**
 * Every message the record rules produce, worded exactly as InvenioRDM words them so that clients
 * written against InvenioRDM (which compare some of them) keep working. The server sends them and
 * the browser shows them; nobody else should spell a rule's message.
 */
export const MESSAGES = Object.freeze({
  required: 'Missing data for required field.',
  unknownField: 'Unknown field.',
  notString: 'Not a valid string.',
  notBoolean: 'Not a valid boolean.',
  notList: 'Not a valid list.',
  notMapping: 'Not a valid mapping type.',
  invalidInputType: 'Invalid input type.',
  tooShort: `Shorter than minimum length ${TITLE_MIN_LENGTH}.`,
  versionTooLong: `Longer than maximum length ${VERSION_MAX_LENGTH}.`,
  invalidEdtf: 'Please provide a valid date or interval.',
  // Cairn's own: InvenioRDM gives invalidEdtf here too, which does not say what to fix.
  intervalReversed: 'The end of the interval is before its start.',
  invalidEdtfDate: 'Please provide a valid date.',
  invalidDate: 'Not a valid date.',
  invalidUrl: 'Not a valid URL.',

  personOrOrgType: "Invalid value. Choose one of ['organizational', 'personal'].",
  familyNameBlank: 'Family name cannot be blank.',
  nameBlank: 'Name cannot be blank.',
  invalidScheme: 'Invalid scheme.',
  onePerScheme: 'Only one identifier per scheme is allowed.',
  duplicatedIdentifier: 'Duplicated identifier entry is not allowed.',
  affiliationIdOrName: 'An existing id or a free text name must be present.',
  subjectIdOrText: 'An existing id or a free text subject must be present.',
  rightsIdOrTitle: 'An existing id or a free text title must be present',
  rightsNotBoth:
    'Only an existing id or free text title/description/link is accepted, but not both cases at the same time',
  onlyOneValue: 'Only one value is accepted.',
  invalidLocale: 'Not a valid locale.',
  funderIdOrName: 'An existing id or a free text name must be present.',
  awardIdOrNumberTitle: 'An existing id or number/title must be present.',
  locationNeedsContent:
    "At least one of ['geometry', 'place', 'identifiers', 'description'] must be present.",

  invalidIsbn: 'Please provide a valid ISBN.',
  invalidIssn: 'Please provide a valid ISSN.',

  accessRecord: "'record' must be either 'public' or 'restricted'",
  accessFiles: "'files' must be either 'public' or 'restricted'",
  embargoFuture: 'Embargo end date must be set to a future date.',
  embargoPast: 'Embargo end date must be unset or in the past.',
  embargoNeedsRestriction: 'Record or files protection must be restricted to apply an embargo.',

  invalidPidScheme: 'Invalid PID scheme.',
  invalidDoi: 'Invalid DOI identifier.',
  missingDoi: 'Missing DOI for required field.',
  publisherRequired: 'Missing publisher field required for DOI registration.',
});

/** "Invalid ORCID identifier." and the like, with the scheme's display label. */
export function invalidIdentifierMessage(label: string): string {
  return `Invalid ${label} identifier.`;
}

/** Names the duplicates so the user can find them in a long affiliation list. */
export function duplicatedAffiliationsMessage(labels: readonly string[]): string {
  return `Duplicated affiliations: ${labels.join(', ')}`;
}
