import i18next, { type i18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import de from './locales/de.json';
import enUS from './locales/en_US.json';

/** SPEC §2: a missing locale falls back to en_US. */
export const FALLBACK_LANGUAGE = 'en_US';

export const resources = {
  en_US: { translation: enUS },
  de: { translation: de },
} as const;

/**
 * The first of the browser's preferred languages that the site offers, else the site default.
 * Languages are compared by their primary subtag (`de-AT` picks `de`).
 */
export function pickLanguage(
  siteLocales: readonly string[],
  defaultLocale: string,
  preferred: readonly string[],
): string {
  const offered = new Set(siteLocales.map(primarySubtag));
  const match = preferred.map(primarySubtag).find((language) => offered.has(language));
  return match ?? defaultLocale;
}

function primarySubtag(locale: string): string {
  return locale.toLowerCase().split(/[-_]/)[0] ?? locale;
}

/** A fresh instance per app (and per test), initialised synchronously from bundled resources. */
export function createI18n(language: string): i18n {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    lng: language,
    fallbackLng: FALLBACK_LANGUAGE,
    resources,
    initAsync: false,
    // React escapes text already.
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  return instance;
}
