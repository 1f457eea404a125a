import {
  IDENTIFIER_SCHEME_LABELS,
  PERSON_OR_ORG_SCHEMES,
  detectSchemes,
  isIdentifierScheme,
  isValidIdentifier,
  normalizeIdentifier,
  schemesByShape,
  type AffiliationFormValues,
  type CreatorFormValues,
  type IdentifierFormValues,
  type IdentifierScheme,
} from '@cairn/shared';

/** Which list a creator belongs to: the two differ in roles and in what is required. */
export type CreatorListName = 'metadata.creators' | 'metadata.contributors';

export type CreatorType = 'personal' | 'organizational';

/** What a person or an organisation carries of its own; kept apart so a type switch loses nothing. */
export interface PartyValues {
  identifiers: IdentifierFormValues[];
  affiliations: AffiliationFormValues[];
}

/**
 * The creator editor's own values. Identifiers and affiliations are remembered separately for
 * the person and the organisation (invenio-reference §4.5.1: switching type keeps both).
 */
export interface CreatorEditorValues {
  type: CreatorType;
  family_name: string;
  given_name: string;
  name: string;
  role: string;
  personal: PartyValues;
  organizational: PartyValues;
}

/** Keys of the `creators` i18n namespace; the editor translates them when it shows them. */
export type CreatorRuleMessage =
  | 'creators.errors.familyNameRequired'
  | 'creators.errors.nameRequired'
  | 'creators.errors.roleRequired'
  | 'creators.errors.identifierUnknown'
  | 'creators.errors.identifierInvalid';

export interface CreatorRuleError {
  /** The editor field the message belongs under. */
  field: 'family_name' | 'name' | 'role' | 'identifiers';
  message: CreatorRuleMessage;
  /** The identifier a message is about, and the scheme it looked like. */
  values?: { identifier: string; scheme?: string };
}

const emptyParty = (): PartyValues => ({ identifiers: [], affiliations: [] });

/** The editor's values for `creator` (a new one when undefined). */
export function toEditorValues(creator: CreatorFormValues | undefined): CreatorEditorValues {
  const person = creator?.person_or_org;
  const type: CreatorType = person?.type === 'organizational' ? 'organizational' : 'personal';
  const own: PartyValues = {
    identifiers: (person?.identifiers ?? []).map((entry) => ({ ...entry })),
    affiliations: (creator?.affiliations ?? []).map((entry) => ({ ...entry })),
  };
  return {
    type,
    family_name: person?.family_name ?? '',
    given_name: person?.given_name ?? '',
    name: type === 'organizational' ? (person?.name ?? '') : '',
    role: creator?.role ?? '',
    personal: type === 'personal' ? own : emptyParty(),
    organizational: type === 'organizational' ? own : emptyParty(),
  };
}

/** The creator the editor's values describe, in the form's shape; only the chosen type counts. */
export function fromEditorValues(values: CreatorEditorValues): CreatorFormValues {
  const party = values[values.type];
  const isPerson = values.type === 'personal';
  return {
    person_or_org: {
      type: values.type,
      family_name: isPerson ? values.family_name.trim() : '',
      given_name: isPerson ? values.given_name.trim() : '',
      name: isPerson ? '' : values.name.trim(),
      identifiers: party.identifiers.map((entry) => ({
        scheme: entry.scheme,
        identifier: isIdentifierScheme(entry.scheme)
          ? normalizeIdentifier(entry.scheme, entry.identifier)
          : entry.identifier.trim(),
      })),
    },
    role: values.role,
    affiliations: party.affiliations,
  };
}

/**
 * The scheme of an identifier typed as a bare string, among those a creator may carry
 * (ORCID before ISNI: a valid ORCID is an ISNI too). `''` when none fits.
 */
export function detectPersonOrOrgScheme(value: string): IdentifierScheme | '' {
  return detectSchemes(value).find((scheme) => PERSON_OR_ORG_SCHEMES.includes(scheme)) ?? '';
}

/**
 * The rules the editor checks when it is submitted (SPEC §5): a person needs a family name, an
 * organisation a name, a contributor a role. Beyond InvenioRDM, which lets the server guess an
 * identifier's scheme after saving (invenio-reference §6.8), identifiers are checked here so a
 * typo is reported in the dialog where it was typed.
 */
export function validateCreator(
  values: CreatorEditorValues,
  list: CreatorListName,
): CreatorRuleError[] {
  const errors: CreatorRuleError[] = [];
  if (values.type === 'personal' && values.family_name.trim() === '') {
    errors.push({ field: 'family_name', message: 'creators.errors.familyNameRequired' });
  }
  if (values.type === 'organizational' && values.name.trim() === '') {
    errors.push({ field: 'name', message: 'creators.errors.nameRequired' });
  }
  if (list === 'metadata.contributors' && values.role === '') {
    errors.push({ field: 'role', message: 'creators.errors.roleRequired' });
  }
  const identifierError = values[values.type].identifiers
    .map(checkIdentifier)
    .find((error) => error !== undefined);
  if (identifierError) errors.push(identifierError);
  return errors;
}

function checkIdentifier(entry: IdentifierFormValues): CreatorRuleError | undefined {
  const { scheme, identifier } = entry;
  if (scheme === '' || !isIdentifierScheme(scheme)) {
    // A value shaped like an ORCID but with a wrong check digit deserves the precise message.
    const shaped = schemesByShape(identifier).find((s) => PERSON_OR_ORG_SCHEMES.includes(s));
    return shaped
      ? invalid(shaped, identifier)
      : {
          field: 'identifiers',
          message: 'creators.errors.identifierUnknown',
          values: { identifier },
        };
  }
  return isValidIdentifier(scheme, identifier) ? undefined : invalid(scheme, identifier);
}

function invalid(scheme: IdentifierScheme, identifier: string): CreatorRuleError {
  return {
    field: 'identifiers',
    message: 'creators.errors.identifierInvalid',
    values: { identifier, scheme: IDENTIFIER_SCHEME_LABELS[scheme] },
  };
}
