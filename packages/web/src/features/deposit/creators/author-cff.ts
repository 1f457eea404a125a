/**
 * The `authors` of a CITATION.cff (Citation File Format 1.2), read as rows of a table are. Apart
 * from author-table.ts because it needs the YAML parser, which only the import dialog loads.
 */
import { parse } from 'yaml';
import { AuthorListError, parseJson, type ParsedAuthors } from './author-table';

/**
 * A CFF person (`family-names`, `given-names`, `name-particle`, `orcid`, `affiliation`) or
 * entity (`name`) as a simple creator object; the particle ("van", "de") is part of the family
 * name, as it sorts with it in Cairn's citations.
 */
function creatorOfAuthor(author: unknown): Record<string, unknown> {
  if (typeof author !== 'object' || author === null) return {};
  const entry = author as Record<string, unknown>;
  const text = (key: string) => (typeof entry[key] === 'string' ? entry[key].trim() : '');
  const family = [text('name-particle'), text('family-names')].filter(Boolean).join(' ');
  const isPerson = family !== '' || text('given-names') !== '' || text('name') === '';
  return {
    type: isPerson ? 'personal' : 'organizational',
    given_name: text('given-names'),
    family_name: family,
    organization: isPerson ? '' : text('name'),
    orcid: text('orcid'),
    affiliations: text('affiliation'),
  };
}

/** Reads the authors of a CITATION.cff; anything else in the file is left alone. */
export function parseCff(text: string): ParsedAuthors {
  let document: unknown;
  try {
    document = parse(text);
  } catch (error) {
    throw new AuthorListError('yamlInvalid', error instanceof Error ? error.message : '');
  }
  const authors =
    typeof document === 'object' && document !== null
      ? (document as Record<string, unknown>)['authors']
      : undefined;
  if (!Array.isArray(authors)) throw new AuthorListError('cffShape');
  return { ...parseJson(JSON.stringify(authors.map(creatorOfAuthor))), format: 'cff' };
}
