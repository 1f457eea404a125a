import { parseCff } from './author-cff';
import {
  AuthorListError,
  detectFormat,
  parseJson,
  parseTable,
  type AuthorFormat,
  type ParsedAuthors,
} from './author-table';

/**
 * Reads pasted or uploaded text in whichever format it is (see `detectFormat`). A file that is
 * no text (a spreadsheet's own format, which is a zip) is refused with a code the dialog turns
 * into advice: save it as CSV.
 */
export function parseAuthorText(
  text: string,
  list: 'creators' | 'contributors',
  format: AuthorFormat = detectFormat(text),
): ParsedAuthors {
  if (text.trim() === '') throw new AuthorListError('empty');
  if (text.startsWith('PK\u0003\u0004') || text.includes('\u0000'))
    throw new AuthorListError('binary');
  switch (format) {
    case 'json':
      return parseJson(text, list);
    case 'cff':
      return parseCff(text);
    case 'tsv':
      return parseTable(text, '\t');
    case 'csv':
      return parseTable(text);
  }
}
