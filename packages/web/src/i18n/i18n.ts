import i18next, { type i18n, type Resource } from 'i18next';
import { initReactI18next } from 'react-i18next';
import enUS from './locales/en_US.json';
import type enUSLater from './locales/en_US.later.json';

/** A missing locale falls back to en_US. */
export const FALLBACK_LANGUAGE = 'en_US';

/**
 * The fallback's translations: those of the app's frame and the deposit page in the bundle, the
 * other pages' in a chunk of their own (`loadLaterStrings`). The types of every key come from both.
 * The deposit page is the one whose first load counts most (its JavaScript has a budget), and the
 * other pages' strings were a third of the English file.
 */
export const resources = {
  en_US: { translation: enUS as typeof enUS & typeof enUSLater },
} as const;

/**
 * The other languages, each its own chunk: a page loads the one it shows, not all of them.
 * Keyed by what `pickLanguage` returns.
 */
const otherLanguages: Readonly<Record<string, () => Promise<{ default: unknown }>>> = {
  de: () => import('./locales/de.json'),
};

/** Translations loaded so far (`loadLanguage`), which `createI18n` then has at hand. */
const loaded: Resource = { ...resources };

/** Every instance made so far, which `loadLaterStrings` extends. */
const instances = new Set<i18n>();

let laterStrings: Promise<void> | null = null;

/**
 * Fetches the English strings of every page but the deposit page and gives them to every
 * instance, made or to be made; fetched once. A page or dialog waits for them before it renders
 * (`lazyPage`, `lazyDialog`): until then their keys would show instead of their texts. Other
 * languages are one chunk each, fetched whole before the first render.
 */
export function loadLaterStrings(): Promise<void> {
  laterStrings ??= import('./locales/en_US.later.json').then(
    (module) => {
      const later = module.default as Strings;
      const fallback = (loaded[FALLBACK_LANGUAGE]?.translation ?? {}) as Strings;
      loaded[FALLBACK_LANGUAGE] = { translation: mergeSections(fallback, later) };
      for (const instance of instances) {
        instance.addResourceBundle(FALLBACK_LANGUAGE, 'translation', later, true, false);
      }
    },
    (error: unknown) => {
      // A failed fetch is tried again by the next page or dialog that needs the strings.
      laterStrings = null;
      throw error;
    },
  );
  return laterStrings;
}

/** `base` with `extra`'s sections added, a section in both merged key by key (one level). */
type Strings = Record<string, unknown>;

function mergeSections(base: Strings, extra: Strings): Strings {
  const merged = { ...base };
  for (const [section, texts] of Object.entries(extra)) {
    const own = merged[section];
    merged[section] =
      typeof own === 'object' && typeof texts === 'object'
        ? { ...(own as Strings), ...(texts as Strings) }
        : texts;
  }
  return merged;
}

/**
 * Fetches the translations of `language` unless they are in the bundle or loaded already; a
 * language without translations of its own is left to the fallback.
 */
export async function loadLanguage(language: string): Promise<void> {
  const load = otherLanguages[language];
  if (!load || loaded[language]) return;
  const translation = (await load()).default as Resource[string]['translation'];
  loaded[language] = { translation };
}

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

/**
 * A fresh instance per app (and per test), initialised synchronously from the translations at
 * hand: the fallback's, and `language`'s once `loadLanguage` has fetched them.
 */
export function createI18n(language: string): i18n {
  const instance = i18next.createInstance();
  void instance.use(initReactI18next).init({
    lng: language,
    fallbackLng: FALLBACK_LANGUAGE,
    resources: { ...loaded },
    initAsync: false,
    // React escapes text already.
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  instances.add(instance);
  return instance;
}

/** The cookie that remembers the language chosen in the header, for a year. */
export const LANGUAGE_COOKIE = 'cairn_language';
const LANGUAGE_COOKIE_SECONDS = 365 * 24 * 60 * 60;

/** The `document.cookie` assignment that remembers `language` in this browser. */
export function languageCookie(language: string, isSecure: boolean): string {
  return `${LANGUAGE_COOKIE}=${encodeURIComponent(language)}; Path=/; Max-Age=${LANGUAGE_COOKIE_SECONDS}; SameSite=Lax${isSecure ? '; Secure' : ''}`;
}

/**
 * The languages to try, first to last: the one chosen with the person's account, then the one
 * this browser remembers, then the browser's own preferences (`pickLanguage` takes the first
 * the site offers).
 */
export function preferredLanguages(
  accountLanguage: string | null | undefined,
  cookieLanguage: string | undefined,
  browserLanguages: readonly string[],
): string[] {
  return [accountLanguage, cookieLanguage, ...browserLanguages].filter(
    (language): language is string => typeof language === 'string' && language !== '',
  );
}

/**
 * Shows the page in `language` at once, without a reload (an open form keeps what was typed):
 * fetches its translations, hands them to `instance` and names the page's language for
 * assistive technology.
 */
export async function switchLanguage(instance: i18n, language: string): Promise<void> {
  await loadLanguage(language);
  const bundle = loaded[language];
  if (bundle && !instance.hasResourceBundle(language, 'translation')) {
    instance.addResourceBundle(language, 'translation', bundle.translation);
  }
  await instance.changeLanguage(language);
  document.documentElement.lang = language;
}
