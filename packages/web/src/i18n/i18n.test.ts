import { describe, expect, it } from 'vitest';
import { createI18n, pickLanguage } from './i18n';

describe('pickLanguage', () => {
  it('takes the first preferred language the site offers, else the site default', () => {
    expect(pickLanguage(['en', 'de'], 'en', ['fr-FR', 'de-AT', 'en'])).toBe('de');
    expect(pickLanguage(['en', 'de'], 'en', ['fr-FR'])).toBe('en');
  });
});

describe('createI18n', () => {
  it('translates into German and falls back to en_US for other languages', () => {
    expect(createI18n('de').t('deposit.actions.save')).toBe('Speichern');
    expect(createI18n('fr').t('deposit.feedback.saved')).toBe('Record successfully saved.');
    expect(createI18n('en').t('deposit.feedback.saved')).toBe('Record successfully saved.');
  });
});
