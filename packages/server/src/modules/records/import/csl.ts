import { plugins } from '@citation-js/core';
import '@citation-js/plugin-bibtex';
import '@citation-js/plugin-ris';
import {
  edtfDate,
  emptyImport,
  list,
  obj,
  orcidOf,
  str,
  type ImportedPerson,
  type ImportedRecord,
} from './imported.js';

/** `[[2024, 3, 1]]` → `2024-03-01`; a CSL date's `raw` or `literal` when it has no parts. */
function cslDate(value: unknown): string | undefined {
  const date = obj(value);
  const parts = list(obj(date)?.['date-parts'])[0];
  if (Array.isArray(parts) && typeof parts[0] === 'number') {
    const [y, m, d] = parts as number[];
    return [String(y).padStart(4, '0'), m, d]
      .filter((p) => p !== undefined)
      .map((p) => String(p).padStart(2, '0'))
      .join('-');
  }
  return edtfDate(date?.raw ?? date?.literal);
}

function cslPerson(value: unknown): ImportedPerson | undefined {
  const p = obj(value);
  if (!p) return undefined;
  const family = str(p.family);
  const literal = str(p.literal) ?? str(p.name);
  const orcid = orcidOf(p.ORCID);
  const affiliations = list(p.affiliation).flatMap((a) => {
    const name = str(obj(a)?.name) ?? str(a);
    return name ? [{ name }] : [];
  });
  if (!family && !literal) return undefined;
  // BibTeX writes an organisation as one braced "family" name without given names.
  const organisation = family !== undefined && !p.given && /\s/.test(family);
  return family && !organisation
    ? {
        type: 'personal',
        familyName: family,
        ...(str(p.given) ? { givenName: str(p.given) } : {}),
        ...(orcid ? { orcid } : {}),
        identifiers: [],
        affiliations,
      }
    : { type: 'organizational', name: (literal ?? family)!, identifiers: [], affiliations };
}

/** Keywords as CSL writes them: one string separated by commas (or semicolons), or a list. */
function keywords(value: unknown): string[] {
  return list(value)
    .flatMap((k) => (typeof k === 'string' ? k.split(/[,;]/) : []))
    .map((k) => k.trim())
    .filter(Boolean);
}

/** One CSL-JSON item (from BibTeX, RIS, or Crossref's answer) as what the source says. */
export function fromCsl(item: Record<string, unknown>): ImportedRecord {
  const r = emptyImport();
  const type = str(item.type);
  if (type) r.resourceType = { csl: type, text: type };
  r.title = str(list(item.title)[0]);
  const subtitle = str(list(item.subtitle)[0]);
  if (subtitle) r.additionalTitles.push({ title: subtitle, type: 'Subtitle' });
  r.publicationDate = cslDate(item.issued) ?? cslDate(item['published-online']);
  r.creators = list(item.author).flatMap((a) => cslPerson(a) ?? []);
  for (const [field, role] of [
    ['editor', 'Editor'],
    ['translator', 'Translator'],
  ] as const) {
    for (const p of list(item[field]).flatMap((a) => cslPerson(a) ?? [])) {
      r.contributors.push({ ...p, role });
    }
  }
  const abstract = str(item.abstract);
  if (abstract) r.description = jatsToHtml(abstract);
  r.publisher = str(item.publisher);
  r.keywords = keywords(item.keyword ?? item.subject);
  const language = str(item.language);
  if (language) r.languages.push(language);
  r.version = str(item.version);
  const doi = str(item.DOI);
  if (doi) r.doi = doi;
  const url = str(item.URL);
  if (url && !/doi\.org\//i.test(url)) r.identifiers.push({ identifier: url, scheme: 'url' });
  for (const isbn of list(item.ISBN)) {
    const s = str(isbn);
    if (s) r.identifiers.push({ identifier: s, scheme: 'isbn' });
  }
  const container = str(list(item['container-title'])[0]);
  const issn = str(list(item.ISSN)[0]);
  if (issn) r.related.push({ identifier: issn, scheme: 'issn', relation: 'IsPublishedIn' });
  else if (container) {
    r.additionalDescriptions.push({ description: container, type: 'SeriesInformation' });
  }
  const license = list(item.license)
    .map((l) => str(obj(l)?.URL) ?? str(l))
    .filter((l): l is string => l !== undefined);
  for (const l of license) r.rights.push(/^https?:/.test(l) ? { url: l } : { id: l, title: l });
  const note = str(item.note);
  if (note) r.additionalDescriptions.push({ description: note, type: 'Other' });
  return r;
}

/** Crossref and some BibTeX exports write abstracts in JATS: its paragraphs become HTML ones. */
function jatsToHtml(text: string): string {
  return text
    .replace(/<jats:title>[^<]*<\/jats:title>/g, '')
    .replace(/<(\/?)jats:p>/g, '<$1p>')
    .replace(/<\/?jats:[^>]*>/g, '')
    .trim();
}

/** The CSL-JSON items citation-js reads from text of `type` (`@biblatex/text`, `@ris/file`). */
export function cslItems(content: string, type: '@biblatex/text' | '@ris/file'): unknown[] {
  try {
    const items = plugins.input.chain(content, {
      target: '@csl/list+object',
      forceType: type,
      generateGraph: false,
    });
    return Array.isArray(items) ? items : [];
  } catch {
    return [];
  }
}

/** Crossref's `message` of `GET /works/{doi}`: CSL-JSON with Crossref's own types and extras. */
export function fromCrossref(message: Record<string, unknown>): ImportedRecord {
  const type = str(message.type);
  const r = fromCsl({
    ...message,
    type: type ? (CROSSREF_TO_CSL[type] ?? type) : undefined,
    keyword: message.subject,
  });
  r.funding = list(message.funder).flatMap((f) => {
    const funder = obj(f);
    const name = str(funder?.name);
    const id = str(funder?.DOI);
    const org = { ...(name ? { name } : {}), ...(id ? { identifier: id } : {}) };
    if (!name && !id) return [];
    const awards = list(funder?.award)
      .map(str)
      .filter((a): a is string => a !== undefined);
    return awards.length
      ? awards.map((awardNumber) => ({ funder: org, awardNumber }))
      : [{ funder: org }];
  });
  r.references = list(message.reference).flatMap((ref) => {
    const o = obj(ref);
    const text = str(o?.unstructured) ?? str(o?.DOI);
    return text ? [text] : [];
  });
  return r;
}

// Crossref's work types where they differ from CSL's (api.crossref.org/types).
const CROSSREF_TO_CSL: Record<string, string> = {
  'journal-article': 'article-journal',
  'proceedings-article': 'paper-conference',
  'book-chapter': 'chapter',
  'posted-content': 'article',
  dissertation: 'thesis',
  report: 'report',
  dataset: 'dataset',
  monograph: 'book',
  'edited-book': 'book',
  'reference-book': 'book',
  'peer-review': 'review',
  component: 'dataset',
};
