import {
  dateParts,
  doiOf,
  landingUrl,
  type ExportContext,
  type ExportRecord,
} from './export-record.js';

/** Resource type → entry type, as InvenioRDM's BibTeX serializer chooses them (biblatex names). */
const ENTRY_TYPES: Readonly<Record<string, string>> = {
  'publication-article': 'article',
  'publication-book': 'book',
  'publication-section': 'inbook',
  'publication-conferencepaper': 'inproceedings',
  'publication-conferenceproceeding': 'proceedings',
  'publication-dissertation': 'phdthesis',
  'publication-report': 'techreport',
  'publication-technicalnote': 'techreport',
  'publication-preprint': 'unpublished',
  'publication-workingpaper': 'unpublished',
  dataset: 'dataset',
  software: 'software',
};

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** LaTeX's special characters escaped, so a title with `50% & more_` compiles. */
export function latexEscape(text: string): string {
  return text.replace(/[\\{}&%$#_~^]/g, (c) => {
    switch (c) {
      case '\\':
        return '\\textbackslash{}';
      case '~':
        return '\\textasciitilde{}';
      case '^':
        return '\\textasciicircum{}';
      default:
        return `\\${c}`;
    }
  });
}

/** An ASCII citation key part: diacritics dropped, anything else outside [a-z0-9] removed. */
function keyPart(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '');
}

function author(c: ExportRecord['metadata']['creators'][number]): string {
  const p = c.person_or_org;
  if (p.type !== 'organizational' && p.family_name?.trim()) {
    const given = p.given_name?.trim();
    return latexEscape(given ? `${p.family_name.trim()}, ${given}` : p.family_name.trim());
  }
  // Braces keep an organisation's name whole instead of being split into given and family parts.
  return `{${latexEscape(p.name?.trim() ?? '')}}`;
}

/** A BibTeX entry (biblatex types where BibTeX has none, as Zenodo and InvenioRDM export). */
export function toBibtex(record: ExportRecord, ctx: ExportContext): string {
  const m = record.metadata;
  const type = ENTRY_TYPES[m.resource_type.id ?? ''] ?? 'misc';
  const [year, month] = dateParts(m.publication_date);
  const first = m.creators[0]?.person_or_org;
  const key = [keyPart(first?.family_name || first?.name || ''), year, keyPart(record.id)]
    .filter(Boolean)
    .join('_');
  const doi = doiOf(record);
  const fields: Array<[string, string | undefined]> = [
    ['author', m.creators.map(author).join(' and ')],
    // Double braces keep the title's capitalisation through bibliography styles.
    ['title', `{${latexEscape(m.title)}}`],
    [
      type === 'phdthesis' ? 'school' : type === 'techreport' ? 'institution' : 'publisher',
      latexEscape(m.publisher?.trim() || ctx.siteName),
    ],
    ['year', year === undefined ? undefined : String(year)],
    ['month', month === undefined ? undefined : MONTHS[month - 1]],
    ['version', m.version?.trim() ? latexEscape(m.version.trim()) : undefined],
    // doi and url are verbatim fields in biblatex: escaping would change them; braces would end them.
    ['doi', doi?.replace(/[{}]/g, '')],
    ['url', (doi ? `https://doi.org/${doi}` : landingUrl(record, ctx)).replace(/[{}]/g, '')],
  ];
  const body = fields
    .filter((f): f is [string, string] => f[1] !== undefined && f[1] !== '')
    // Months are BibTeX macros (jan, feb…), everything else a braced value.
    .map(([name, value]) => `  ${name.padEnd(9)} = ${name === 'month' ? value : `{${value}}`}`)
    .join(',\n');
  return `@${type}{${key},\n${body}\n}\n`;
}
