/**
 * Text as the search index compares words: lower case without accents, so that "Müller" matches
 * "muller" wherever the page compares what people typed with what the server found.
 */
export function fold(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}
