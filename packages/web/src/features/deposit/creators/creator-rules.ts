import {
  ContributorFormSchema,
  CreatorFormSchema,
  PERSON_OR_ORG_SCHEMES,
  detectSchemes,
  isIdentifierScheme,
  normalizeIdentifier,
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
 * the person and the organisation: switching the type and back, by mistake or to compare, keeps
 * what was entered for each.
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
 * The shared schema the editor is checked with when it is submitted: a person needs a family name,
 * an organisation a name, a contributor a role. Identifiers are checked too, rather than left for
 * the server to make sense of after saving, so a typo is reported in the dialog where it was typed.
 * The schema checks `fromEditorValues`' result, the creator the form would store.
 */
export function creatorSchemaFor(list: CreatorListName) {
  return list === 'metadata.contributors' ? ContributorFormSchema : CreatorFormSchema;
}

/**
 * The editor field a problem of the schema is shown under: identifiers are one input per type,
 * so any identifier's problem goes to that input.
 */
export function creatorFieldOf(type: CreatorType) {
  return (path: readonly PropertyKey[]): string | undefined => {
    const [first, second] = path;
    if (first === 'role') return 'role';
    if (first !== 'person_or_org') return undefined;
    if (second === 'family_name' || second === 'name') return second;
    if (second === 'identifiers') return `${type}.identifiers`;
    return undefined;
  };
}
