import type { ImportFileFormat as ImportFormat } from '@cairn/shared';
import { parse as parseYaml } from 'yaml';
import { AppError } from '../../../errors.js';
import { cslItems, fromCsl } from './csl.js';
import { dataciteAttributes, dataciteXmlToJson, fromDataCite } from './datacite.js';
import { obj, type ImportedRecord } from './imported.js';
import { fromCff, fromCodeMeta, fromInvenioRdm, fromZenodoLegacy } from './software.js';

const LABELS: Record<ImportFormat, string> = {
  bibtex: 'BibTeX',
  ris: 'RIS',
  cff: 'CITATION.cff',
  'datacite-json': 'DataCite JSON',
  'datacite-xml': 'DataCite XML',
  codemeta: 'CodeMeta JSON',
  inveniordm: 'InvenioRDM or Zenodo record JSON',
};

function notReadable(message: string): AppError {
  return new AppError('VALIDATION_FAILED', message, [{ field: 'content', messages: [message] }]);
}

function parseJson(content: string): Record<string, unknown> | undefined {
  try {
    return obj(JSON.parse(content));
  } catch {
    return undefined;
  }
}

function parseCff(content: string): Record<string, unknown> | undefined {
  try {
    const doc = obj(parseYaml(content, { maxAliasCount: 100 }));
    return doc && 'cff-version' in doc ? doc : undefined;
  } catch {
    return undefined;
  }
}

/** Which JSON this is, by the keys each format must have. */
function jsonFormat(json: Record<string, unknown>): ImportFormat | undefined {
  const context = JSON.stringify(json['@context'] ?? '');
  if (/codemeta|schema\.org/i.test(context)) return 'codemeta';
  const metadata = obj(json.metadata);
  if (metadata && ('title' in metadata || 'creators' in metadata)) return 'inveniordm';
  const attributes = obj(obj(json.data)?.attributes) ?? json;
  if ('titles' in attributes || 'types' in attributes || 'creators' in attributes) {
    return 'datacite-json';
  }
  return undefined;
}

/** The format the content shows itself to be, or undefined when it is none of them. */
export function detectFormat(content: string): ImportFormat | undefined {
  const text = content.trimStart();
  if (text.startsWith('{')) {
    const json = parseJson(text);
    return json ? jsonFormat(json) : undefined;
  }
  if (text.startsWith('<')) return 'datacite-xml';
  if (/^@\w+\s*[{(]/.test(text) || /^%/.test(text)) return 'bibtex';
  if (/^TY {2}- /m.test(text)) return 'ris';
  if (/^cff-version\s*:/m.test(text)) return 'cff';
  return undefined;
}

/**
 * Reads an uploaded file as `format` (detected when not given). A file that is not what it says
 * it is, or not readable as any format, is a 400 naming the format it was read as.
 */
export function readImportFile(
  content: string,
  given?: ImportFormat,
): { format: ImportFormat; imported: ImportedRecord } {
  const format = given ?? detectFormat(content);
  if (!format) {
    throw notReadable(
      `The file is none of the formats Cairn imports (${Object.values(LABELS).join(', ')}).`,
    );
  }
  const fail = (detail: string) =>
    notReadable(`The file is not valid ${LABELS[format]}: ${detail}`);
  switch (format) {
    case 'bibtex':
    case 'ris': {
      const items = cslItems(content, format === 'bibtex' ? '@biblatex/text' : '@ris/file');
      const first = obj(items[0]);
      if (!first || !('title' in first || 'author' in first)) {
        throw fail(`no ${format === 'bibtex' ? 'BibTeX entry' : 'RIS record'} found.`);
      }
      return { format, imported: fromCsl(first) };
    }
    case 'cff': {
      const doc = parseCff(content);
      if (!doc) throw fail('a CITATION.cff is YAML with a cff-version key.');
      return { format, imported: fromCff(doc) };
    }
    case 'datacite-xml': {
      const json = dataciteXmlToJson(content);
      if (!json) throw fail('not well-formed XML with a DataCite resource element.');
      return { format, imported: fromDataCite(json) };
    }
    default: {
      const json = parseJson(content);
      if (!json) throw fail('not a JSON object.');
      const shown = jsonFormat(json);
      if (shown !== format) {
        throw fail(shown ? `it reads as ${LABELS[shown]}.` : 'none of its required keys is there.');
      }
      if (format === 'codemeta') return { format, imported: fromCodeMeta(json) };
      if (format === 'datacite-json') {
        return { format, imported: fromDataCite(dataciteAttributes(json)) };
      }
      const m = obj(json.metadata)!;
      const invenio =
        'resource_type' in m
          ? obj(m.resource_type)?.id !== undefined
          : !('upload_type' in m) && !('doi' in m);
      const personOrOrg = JSON.stringify(m.creators ?? []).includes('person_or_org');
      return {
        format,
        imported: invenio || personOrOrg ? fromInvenioRdm(json) : fromZenodoLegacy(json),
      };
    }
  }
}
