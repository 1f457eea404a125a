import { describe, expect, it } from 'vitest';
import { createI18n, pickLanguage, preferredLanguages } from './i18n';

describe('pickLanguage', () => {
  it('takes the first preferred language the site offers, else the site default', () => {
    expect(pickLanguage(['en', 'de'], 'en', ['fr-FR', 'de-AT', 'en'])).toBe('de');
    expect(pickLanguage(['en', 'de'], 'en', ['fr-FR'])).toBe('en');
  });
});

describe('preferredLanguages', () => {
  it("puts the account's choice first, then this browser's, then the browser's preferences", () => {
    const pick = (account: string | null, cookie: string | undefined) =>
      pickLanguage(['en', 'de'], 'en', preferredLanguages(account, cookie, ['de-DE']));
    expect(pick('en', 'de')).toBe('en');
    expect(pick(null, 'en')).toBe('en');
    expect(pick(null, undefined)).toBe('de');
  });
});

describe('createI18n', () => {
  it('translates into German and falls back to en_US for other languages', () => {
    expect(createI18n('de').t('deposit.actions.save')).toBe('Speichern');
    expect(createI18n('fr').t('deposit.feedback.saved')).toBe('Record successfully saved.');
    expect(createI18n('en').t('deposit.feedback.saved')).toBe('Record successfully saved.');
  });
});
