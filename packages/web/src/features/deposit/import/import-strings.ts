import type { i18n } from 'i18next';
import { FALLBACK_LANGUAGE } from '../../../i18n/i18n';
import de from './locales/de.json';
import en from './locales/en_US.json';

/** The Import dialog's strings: a namespace of their own, in the dialog's chunk. */
export const IMPORT_NS = 'importMetadata';

/**
 * Hands the dialog's strings to `instance` unless it has them: they come with the dialog's code,
 * so that the deposit page's first load carries only the button's label.
 */
export function addImportStrings(instance: i18n): void {
  for (const [language, strings] of [
    [FALLBACK_LANGUAGE, en],
    ['de', de],
  ] as const) {
    if (!instance.hasResourceBundle(language, IMPORT_NS)) {
      instance.addResourceBundle(language, IMPORT_NS, strings);
    }
  }
}
