import { ContributorFormSchema, FORM_RULE_MESSAGES, createEmptyCreator } from '@cairn/shared';
import type { ResolverOptions } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createI18n, loadLanguage } from '../../i18n/i18n';
import enUS from '../../i18n/locales/en_US.json';
import { ruleMessages, ruleResolver } from './rule-resolver';

const en = createI18n('en').t;

function contributor(familyName: string, identifier: string) {
  const empty = createEmptyCreator();
  return {
    ...empty,
    person_or_org: {
      ...empty.person_or_org,
      family_name: familyName,
      identifiers: [{ scheme: 'orcid', identifier }],
    },
  };
}

describe('the dialog rules in the page’s language', () => {
  it('word each rule in English exactly as shared does', () => {
    expect(enUS.formRules).toEqual(FORM_RULE_MESSAGES);
  });

  it('word each rule in German, with the values of the message', async () => {
    await loadLanguage('de');
    const de = createI18n('de').t;
    expect(ruleMessages(ContributorFormSchema, contributor('', '0000-0002-1825-0098'), de)).toEqual(
      {
        'person_or_org.family_name': 'Nachname ist ein Pflichtfeld.',
        role: 'Rolle ist ein Pflichtfeld.',
        'person_or_org.identifiers.0.identifier':
          '„0000-0002-1825-0098“ ist keine gültige ORCID-Kennung.',
      },
    );
  });

  it('keep a schema’s own message for what is not a dialog rule', () => {
    const schema = z.object({ count: z.number({ error: 'Not a valid integer.' }) });
    expect(ruleMessages(schema, { count: 'x' }, en)).toEqual({ count: 'Not a valid integer.' });
  });

  it('show the first problem of a field where `fieldOf` puts it', () => {
    const value = {
      ...contributor('Curie', 'nope'),
      person_or_org: {
        ...contributor('Curie', 'nope').person_or_org,
        identifiers: [
          { scheme: 'orcid', identifier: 'nope' },
          { scheme: 'gnd', identifier: 'bad' },
        ],
      },
    };
    const fieldOf = (path: readonly PropertyKey[]) =>
      path[1] === 'identifiers' ? 'identifiers' : undefined;
    expect(ruleMessages(ContributorFormSchema, value, en, fieldOf)).toEqual({
      role: 'Role is a required field.',
      identifiers: '“nope” is not a valid ORCID identifier.',
    });
  });
});

describe('ruleResolver', () => {
  const options = {
    fields: {},
    shouldUseNativeValidation: false,
  } as ResolverOptions<{ family: string; role: string }>;
  const resolver = ruleResolver<{ family: string; role: string }>(ContributorFormSchema, en, {
    toInput: ({ family, role }) => ({
      ...createEmptyCreator(),
      person_or_org: { ...createEmptyCreator().person_or_org, family_name: family },
      role,
    }),
    fieldOf: (path) => (path[1] === 'family_name' ? 'family' : undefined),
  });

  it('gives React Hook Form the problems under the dialog’s own fields', async () => {
    expect(await resolver({ family: '', role: '' }, undefined, options)).toEqual({
      values: {},
      errors: {
        family: { type: 'rule', message: 'Family name is a required field.', ref: undefined },
        role: { type: 'rule', message: 'Role is a required field.', ref: undefined },
      },
    });
  });

  it('passes valid values through unchanged', async () => {
    const values = { family: 'Curie', role: 'editor' };
    expect(await resolver(values, undefined, options)).toEqual({ values, errors: {} });
  });
});
