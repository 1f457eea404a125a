import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  ContributorFormSchema,
  CreatorFormSchema,
  CustomLicenseFormSchema,
  FORM_RULE_MESSAGES,
  FundingFormSchema,
  formRuleOf,
} from './form-rules.js';
import {
  createEmptyCreator,
  type CreatorFormValues,
  type DepositFormValues,
  type FundingFormValues,
  type RightsFormValues,
} from './form-values.js';
import { deserializeDraft, serializeDraft } from './serializer.js';
import { loadRecord, validateForPublish } from '../validation/load-record.js';
import { buildValidationOptions } from '../test/builders.js';

/** Issues as `{path: messages}`, the way the dialogs show them. */
function issuesOf(result: z.ZodSafeParseResult<unknown>): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const issue of result.error?.issues ?? []) {
    (out[issue.path.join('.')] ??= []).push(issue.message);
  }
  return out;
}

function person(overrides: Partial<CreatorFormValues['person_or_org']> = {}): CreatorFormValues {
  const creator = createEmptyCreator();
  return {
    ...creator,
    person_or_org: { ...creator.person_or_org, family_name: 'Curie', ...overrides },
  };
}

function organisation(name: string): CreatorFormValues {
  return person({ type: 'organizational', family_name: '', name });
}

function license(values: Partial<Required<RightsFormValues>>) {
  return { title: '', description: '', link: '', ...values };
}

function funding(
  funder: FundingFormValues['funder'],
  award: FundingFormValues['award'] = {},
): FundingFormValues {
  return { funder, award };
}

const FUNDER = { id: '00k4n6c32', name: 'European Commission' };

describe('the creators dialog rules', () => {
  it('a person needs a family name', () => {
    expect(issuesOf(CreatorFormSchema.safeParse(person({ family_name: '  ' })))).toEqual({
      'person_or_org.family_name': ['Family name is a required field.'],
    });
    expect(CreatorFormSchema.safeParse(person()).success).toBe(true);
  });

  it('an organisation needs a name, and its family name does not matter', () => {
    expect(issuesOf(CreatorFormSchema.safeParse(organisation('')))).toEqual({
      'person_or_org.name': ['Name is a required field.'],
    });
    expect(CreatorFormSchema.safeParse(organisation('CERN')).success).toBe(true);
  });

  it('a contributor needs a role; a creator does not', () => {
    expect(issuesOf(ContributorFormSchema.safeParse(person()))).toEqual({
      role: ['Role is a required field.'],
    });
    expect(CreatorFormSchema.safeParse(person()).success).toBe(true);
    expect(ContributorFormSchema.safeParse({ ...person(), role: 'editor' }).success).toBe(true);
  });

  it('an identifier must be valid for its scheme, named after the scheme', () => {
    const result = CreatorFormSchema.safeParse(
      person({ identifiers: [{ scheme: 'orcid', identifier: '0000-0002-1825-0098' }] }),
    );
    expect(issuesOf(result)).toEqual({
      'person_or_org.identifiers.0.identifier': [
        '“0000-0002-1825-0098” is not a valid ORCID identifier.',
      ],
    });
    expect(
      CreatorFormSchema.safeParse(
        person({ identifiers: [{ scheme: 'orcid', identifier: '0000-0002-1825-0097' }] }),
      ).success,
    ).toBe(true);
  });

  it('an identifier without a scheme is named after the scheme it looks like, else unknown', () => {
    const result = CreatorFormSchema.safeParse(
      person({
        identifiers: [
          { scheme: '', identifier: '0000-0002-1825-0098' },
          { scheme: '', identifier: 'not-an-id' },
        ],
      }),
    );
    expect(issuesOf(result)).toEqual({
      'person_or_org.identifiers.0.identifier': [
        '“0000-0002-1825-0098” is not a valid ORCID identifier.',
      ],
      'person_or_org.identifiers.1.identifier': [
        '“not-an-id” is not an ORCID, ISNI, GND or ROR identifier.',
      ],
    });
  });

  it('reports every problem at once', () => {
    const result = ContributorFormSchema.safeParse(
      person({ family_name: '', identifiers: [{ scheme: 'ror', identifier: 'x' }] }),
    );
    expect(Object.keys(issuesOf(result))).toEqual([
      'person_or_org.family_name',
      'role',
      'person_or_org.identifiers.0.identifier',
    ]);
  });
});

describe('the custom licence dialog rules', () => {
  it('a title is required', () => {
    expect(issuesOf(CustomLicenseFormSchema.safeParse(license({ title: ' ' })))).toEqual({
      title: ['Title is a required field.'],
    });
  });

  it('a link must be an http(s) URL, and may be left out', () => {
    expect(
      issuesOf(CustomLicenseFormSchema.safeParse(license({ title: 'Mine', link: 'example' }))),
    ).toEqual({ link: ['Link must be a valid URL'] });
    expect(
      issuesOf(
        CustomLicenseFormSchema.safeParse(license({ title: 'Mine', link: 'ftp://example.org' })),
      ),
    ).toEqual({ link: ['Link must be a valid URL'] });
    expect(CustomLicenseFormSchema.safeParse(license({ title: 'Mine' })).success).toBe(true);
    expect(
      CustomLicenseFormSchema.safeParse(license({ title: 'Mine', link: 'https://example.org/l' }))
        .success,
    ).toBe(true);
  });
});

describe('the funding dialog rules', () => {
  it('a funder is required, by id or by name', () => {
    expect(issuesOf(FundingFormSchema.safeParse(funding({})))).toEqual({
      funder: ['Funder is required.'],
    });
    expect(FundingFormSchema.safeParse(funding({ name: 'Wellcome Trust' })).success).toBe(true);
    expect(FundingFormSchema.safeParse(funding(FUNDER)).success).toBe(true);
  });

  it('an award URL must be a URL', () => {
    expect(
      issuesOf(FundingFormSchema.safeParse(funding(FUNDER, { number: '1', url: 'grant page' }))),
    ).toEqual({ 'award.url': ['URL must be valid.'] });
  });

  it('an award URL needs a number or a title beside it', () => {
    expect(
      issuesOf(FundingFormSchema.safeParse(funding(FUNDER, { url: 'https://example.org/g' }))),
    ).toEqual({ 'award.url': ['URL must be set alongside title or number.'] });
    expect(
      FundingFormSchema.safeParse(funding(FUNDER, { title: 'G', url: 'https://example.org/g' }))
        .success,
    ).toBe(true);
    expect(FundingFormSchema.safeParse(funding(FUNDER, { id: '00k4n6c32::755021' })).success).toBe(
      true,
    );
  });
});

describe('formRuleOf', () => {
  it('names the rule and the values of its message, for translations', () => {
    const result = CreatorFormSchema.safeParse(
      person({ identifiers: [{ scheme: 'gnd', identifier: 'nope' }] }),
    );
    const issue = result.error?.issues[0];
    expect(issue && formRuleOf(issue)).toEqual({
      rule: 'identifierInvalid',
      identifier: 'nope',
      scheme: 'GND',
    });
  });

  it('is undefined for issues that are not a dialog rule', () => {
    const result = CreatorFormSchema.safeParse({ ...person(), role: 3 });
    const issue = result.error?.issues[0];
    expect(issue?.path).toEqual(['role']);
    expect(issue && formRuleOf(issue)).toBeUndefined();
  });

  it('has a message for every rule', () => {
    expect(Object.values(FORM_RULE_MESSAGES).every((message) => message.length > 0)).toBe(true);
  });
});

/**
 * The dialogs may refuse only what the server refuses: each rule's failing value, saved through
 * the serializer as the form would send it, draws an error from the server's own loader on the
 * same field.
 */
describe('the server refuses what the dialogs refuse', () => {
  const options = { defaultLocale: 'en' };
  const validation = buildValidationOptions({ locales: ['en'] });

  function serverErrorFields(edit: (values: DepositFormValues) => void): string[] {
    const { values } = deserializeDraft({ metadata: {} }, options);
    edit(values);
    const payload = serializeDraft(values, null, options);
    const { data, errors } = loadRecord(payload, validation);
    return [...errors, ...validateForPublish(data, validation)].map((error) => error.field);
  }

  it.each([
    ['a person without a family name', person({ family_name: '' }), 'creators', 'family_name'],
    ['an organisation without a name', organisation(''), 'creators', 'name'],
    [
      'an invalid identifier',
      person({ identifiers: [{ scheme: 'orcid', identifier: '0000-0002-1825-0098' }] }),
      'creators',
      'identifiers.0.identifier',
    ],
    [
      'an identifier of no known scheme',
      person({ identifiers: [{ scheme: '', identifier: 'not-an-id' }] }),
      'creators',
      'identifiers.0.scheme',
    ],
  ] as const)('%s', (_, creator, list, field) => {
    const schema = list === 'creators' ? CreatorFormSchema : ContributorFormSchema;
    expect(schema.safeParse(creator).success).toBe(false);
    expect(
      serverErrorFields((values) => {
        values.metadata.creators = [creator];
      }),
    ).toContain(`metadata.creators.0.person_or_org.${field}`);
  });

  it('a contributor without a role', () => {
    expect(ContributorFormSchema.safeParse(person()).success).toBe(false);
    expect(
      serverErrorFields((values) => {
        values.metadata.contributors = [person()];
      }),
    ).toContain('metadata.contributors.0.role');
  });

  it.each([
    ['without a title', license({ link: 'https://example.org' }), 'metadata.rights.0'],
    ['with a bad link', license({ title: 'Mine', link: 'example' }), 'metadata.rights.0.link'],
  ])('a custom licence %s', (_, value, field) => {
    expect(CustomLicenseFormSchema.safeParse(value).success).toBe(false);
    expect(
      serverErrorFields((values) => {
        values.metadata.rights = [value];
      }),
    ).toContain(field);
  });

  it.each([
    ['without a funder', funding({}, { number: '1' }), 'metadata.funding.0.funder'],
    ['with a bad award URL', funding(FUNDER, { number: '1', url: 'x y' }), 'metadata.funding.0'],
    ['with an award URL alone', funding(FUNDER, { url: 'https://a.org' }), 'metadata.funding.0'],
  ])('a funding entry %s', (_, value, field) => {
    expect(FundingFormSchema.safeParse(value).success).toBe(false);
    expect(
      serverErrorFields((values) => {
        values.metadata.funding = [value];
      }).some((path) => path.startsWith(field)),
    ).toBe(true);
  });
});
