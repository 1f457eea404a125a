import { z } from 'zod';
import { PersonOrOrgTypeSchema } from '../domain/creator.js';
import {
  IDENTIFIER_SCHEME_LABELS,
  PERSON_OR_ORG_SCHEMES,
  isHttpUrl,
  isIdentifierScheme,
  isValidIdentifier,
  schemesByShape,
  type IdentifierScheme,
} from '../domain/identifiers.js';
import type { CreatorFormValues, FundingFormValues, RightsFormValues } from './form-values.js';

/*
 * The rules the deposit form's dialogs check when they are submitted (a dialog validates on submit
 * only, never while typing), as Zod schemas over the form's own shapes (form-values.ts). Each rule
 * is one the server enforces too when the draft is saved or published (load-creators.ts,
 * load-metadata.ts), so the dialog never refuses what the server would accept; only the wording
 * differs: the server answers with InvenioRDM's API messages, the dialogs with InvenioRDM's deposit
 * form messages.
 */

/**
 * The dialogs' messages, keyed by rule, worded as the product words them (and as InvenioRDM's
 * deposit form does for the rest). `{{name}}` marks a value filled in from the issue's `params`, in
 * i18next's syntax, so that a translation of a rule takes the same values.
 */
export const FORM_RULE_MESSAGES = Object.freeze({
  familyNameRequired: 'Family name is a required field.',
  nameRequired: 'Name is a required field.',
  roleRequired: 'Role is a required field.',
  identifierUnknown: '“{{identifier}}” is not an ORCID, ISNI, GND or ROR identifier.',
  identifierInvalid: '“{{identifier}}” is not a valid {{scheme}} identifier.',
  titleRequired: 'Title is a required field.',
  linkInvalid: 'Link must be a valid URL',
  funderRequired: 'Funder is required.',
  awardUrlInvalid: 'URL must be valid.',
  awardUrlAlone: 'URL must be set alongside title or number.',
});

/** The name of a dialog rule, which is also the key of its message. */
export type FormRule = keyof typeof FORM_RULE_MESSAGES;

/**
 * What a form rule's issue carries besides its English message, so that a translated form can
 * word it again: the rule, and the values its message names.
 */
export interface FormRuleParams {
  rule: FormRule;
  [value: string]: string;
}

/** The rule behind a Zod issue, when one of the schemas below raised it. */
export function formRuleOf(issue: z.core.$ZodIssue): FormRuleParams | undefined {
  if (issue.code !== 'custom') return undefined;
  const rule: unknown = issue.params?.['rule'];
  return typeof rule === 'string' && Object.hasOwn(FORM_RULE_MESSAGES, rule)
    ? (issue.params as FormRuleParams)
    : undefined;
}

function addRuleIssue(
  ctx: z.RefinementCtx,
  path: (string | number)[],
  rule: FormRule,
  values: Record<string, string> = {},
): void {
  const message = FORM_RULE_MESSAGES[rule].replace(
    /{{(\w+)}}/g,
    (_, name: string) => values[name] ?? '',
  );
  ctx.addIssue({ code: 'custom', path, message, params: { ...values, rule } });
}

const isBlank = (value: string | undefined): boolean => (value ?? '').trim() === '';

const IdentifierRowSchema = z.object({ scheme: z.string(), identifier: z.string() });

/**
 * What is wrong with one identifier of a creator, if anything: the server drops an identifier
 * whose scheme it cannot tell or whose value is not valid for it ("Invalid scheme.", "Invalid
 * ORCID identifier."). A value shaped like a creator's scheme but failing its check digit is
 * named after that scheme, which says more than "unknown".
 */
function creatorIdentifierProblem(entry: {
  scheme: string;
  identifier: string;
}): { rule: FormRule; values: Record<string, string> } | undefined {
  const { scheme, identifier } = entry;
  const invalid = (known: IdentifierScheme) => ({
    rule: 'identifierInvalid' as const,
    values: { identifier, scheme: IDENTIFIER_SCHEME_LABELS[known] },
  });
  if (scheme === '' || !isIdentifierScheme(scheme)) {
    const shaped = schemesByShape(identifier).find((s) => PERSON_OR_ORG_SCHEMES.includes(s));
    return shaped ? invalid(shaped) : { rule: 'identifierUnknown', values: { identifier } };
  }
  return isValidIdentifier(scheme, identifier) ? undefined : invalid(scheme);
}

function creatorFormSchema(roleRequired: boolean) {
  return z
    .object({
      person_or_org: z.object({
        type: PersonOrOrgTypeSchema,
        given_name: z.string(),
        family_name: z.string(),
        name: z.string(),
        identifiers: z.array(IdentifierRowSchema),
      }),
      role: z.string(),
      affiliations: z.array(z.object({ id: z.string().optional(), name: z.string() })),
    })
    .superRefine((creator, ctx) => {
      const person = creator.person_or_org;
      if (person.type === 'personal' && isBlank(person.family_name)) {
        addRuleIssue(ctx, ['person_or_org', 'family_name'], 'familyNameRequired');
      }
      if (person.type === 'organizational' && isBlank(person.name)) {
        addRuleIssue(ctx, ['person_or_org', 'name'], 'nameRequired');
      }
      if (roleRequired && isBlank(creator.role)) addRuleIssue(ctx, ['role'], 'roleRequired');
      person.identifiers.forEach((entry, index) => {
        const problem = creatorIdentifierProblem(entry);
        if (problem) {
          addRuleIssue(
            ctx,
            ['person_or_org', 'identifiers', index, 'identifier'],
            problem.rule,
            problem.values,
          );
        }
      });
    }) satisfies z.ZodType<CreatorFormValues>;
}

/**
 * A creator as the creators dialog submits it: a person needs a family name, an organisation a
 * name, and every identifier must be a valid ORCID, ISNI, GND or ROR (or another scheme the
 * server knows, checked against its format). The role may be left empty.
 */
export const CreatorFormSchema = creatorFormSchema(false);

/** A contributor: a creator whose role is required ("Role is a required field."). */
export const ContributorFormSchema = creatorFormSchema(true);

/**
 * A custom licence as its dialog submits it: a title, and a link only if it is an http(s) URL
 * (the server's "An existing id or a free text title must be present" and "Not a valid URL.").
 */
export const CustomLicenseFormSchema = z
  .object({ title: z.string(), description: z.string(), link: z.string() })
  .superRefine((license, ctx) => {
    if (isBlank(license.title)) addRuleIssue(ctx, ['title'], 'titleRequired');
    if (!isBlank(license.link) && !isHttpUrl(license.link)) {
      addRuleIssue(ctx, ['link'], 'linkInvalid');
    }
  }) satisfies z.ZodType<Required<Omit<RightsFormValues, 'id'>>>;

const FundingPartSchema = z.object({
  id: z.string().optional(),
  name: z.string().optional(),
  title: z.string().optional(),
  number: z.string().optional(),
  acronym: z.string().optional(),
  url: z.string().optional(),
});

/**
 * A funding entry as its dialog submits it: a funder (by id or name; the server's required
 * `funder`), and an award either from the vocabulary or described, where a URL must be a URL
 * and cannot stand alone (the server sends it as an identifier and wants an award's id, number
 * or title: "An existing id or number/title must be present.").
 */
export const FundingFormSchema = z
  .object({ funder: FundingPartSchema, award: FundingPartSchema })
  .superRefine(({ funder, award }, ctx) => {
    if (isBlank(funder.id) && isBlank(funder.name)) addRuleIssue(ctx, ['funder'], 'funderRequired');
    if (!isBlank(award.id) || isBlank(award.url)) return;
    if (!isValidIdentifier('url', award.url ?? '')) {
      addRuleIssue(ctx, ['award', 'url'], 'awardUrlInvalid');
    } else if (isBlank(award.number) && isBlank(award.title)) {
      addRuleIssue(ctx, ['award', 'url'], 'awardUrlAlone');
    }
  }) satisfies z.ZodType<FundingFormValues>;
