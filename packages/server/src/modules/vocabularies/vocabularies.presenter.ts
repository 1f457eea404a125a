import type { VocabularyEntrySchema, VocabularyHitSchema } from '@cairn/shared';
import type { z } from 'zod';
import type { VocabularyEntry } from './vocabularies.repository.js';
import { localizedText } from './vocabularies.service.js';

/** The link every vocabulary item carries: `{siteUrl}/api/vocabularies/{type}/{id}`. */
export function vocabularyItemUrl(siteUrl: string, entry: VocabularyEntry): string {
  return `${siteUrl}/api/vocabularies/${encodeURIComponent(entry.type)}/${encodeURIComponent(entry.id)}`;
}

/** Plain JSON: the stored multilingual entry with its self link, as InvenioRDM answers it. */
export function presentVocabularyEntry(
  entry: VocabularyEntry,
  siteUrl: string,
): z.input<typeof VocabularyEntrySchema> {
  return {
    id: entry.id,
    type: entry.type,
    title: entry.title,
    ...(entry.description ? { description: entry.description } : {}),
    ...(entry.icon ? { icon: entry.icon } : {}),
    ...(entry.props ? { props: entry.props } : {}),
    tags: entry.tags,
    links: { self: vocabularyItemUrl(siteUrl, entry) },
  };
}

/**
 * The vnd (UI) form: only the localized subset the deposit form reads, titles in the reader's
 * locale with the default locale as fallback, as InvenioRDM's deposit form reads them.
 */
export function presentLocalizedVocabularyEntry(
  entry: VocabularyEntry,
  locale: string,
  fallbackLocale: string,
): z.input<typeof VocabularyHitSchema> {
  const description = localizedText(entry.description, locale, fallbackLocale);
  return {
    id: entry.id,
    title_l10n: localizedText(entry.title, locale, fallbackLocale) ?? entry.id,
    ...(description !== undefined ? { description_l10n: description } : {}),
    ...(entry.icon ? { icon: entry.icon } : {}),
    ...(entry.props ? { props: entry.props } : {}),
    tags: entry.tags,
  };
}
