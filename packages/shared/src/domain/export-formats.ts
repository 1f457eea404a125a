/**
 * The record export formats of `/records/{id}/export/{name}`, in the order the landing page lists
 * them, with the label it shows. Format names are proper names, the same in every language. The
 * server's registry renders them and keeps this list (a test holds the two equal).
 */
export const EXPORT_FORMAT_LINKS = [
  { name: 'datacite-json', label: 'DataCite JSON' },
  { name: 'datacite-xml', label: 'DataCite XML' },
  { name: 'json-ld', label: 'JSON-LD (schema.org)' },
  { name: 'csl', label: 'CSL' },
  { name: 'bibtex', label: 'BibTeX' },
  { name: 'dublincore', label: 'Dublin Core XML' },
  { name: 'dcat-ap', label: 'DCAT-AP' },
  { name: 'codemeta', label: 'CodeMeta' },
  { name: 'cff', label: 'Citation File Format' },
] as const;

export type ExportFormatName = (typeof EXPORT_FORMAT_LINKS)[number]['name'];
