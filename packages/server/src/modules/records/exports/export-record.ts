import spdxLicenses from 'spdx-license-list';
import type { RecordForDataCite } from '../../pids/datacite/datacite-serializer.js';
import type { VocabularyEntry } from '../../vocabularies/vocabularies.repository.js';

/** A published record as the records API presents it (`application/json`), as exports read it. */
export interface ExportRecord extends RecordForDataCite {
  created?: string;
  updated?: string;
  access?: {
    record?: string;
    files?: string;
    embargo?: { active?: boolean; until?: string };
    status?: string;
  };
  files?: {
    enabled?: boolean;
    entries?: Record<string, { key: string; size?: number; mimetype?: string; status?: string }>;
  };
  metadata: RecordForDataCite['metadata'] & { locations?: unknown; formats?: string[] };
}

/** A file every reader may download, as exports list it. */
export interface ExportFile {
  key: string;
  size: number;
  mimetype: string;
  url: string;
}

/** What an exporter needs besides the record. */
export interface ExportContext {
  siteUrl: string;
  siteName: string;
  vocab: (type: string, id: string) => VocabularyEntry | undefined;
}

/** The record's landing page. */
export function landingUrl(record: ExportRecord, ctx: ExportContext): string {
  return `${ctx.siteUrl.replace(/\/+$/, '')}/records/${record.id}`;
}

export function doiOf(record: ExportRecord): string | undefined {
  return record.pids?.doi?.identifier || undefined;
}

/**
 * The files an export may name. Exports are for anyone (citation managers, harvesters, search
 * engines) and are the same whoever asks, so they list files only when every reader may download
 * them: the record and its files public and no embargo running. An owner's export of a restricted
 * record therefore names no files either; it never carries what a forwarded copy must not.
 */
export function openFiles(record: ExportRecord, ctx: ExportContext): ExportFile[] {
  const a = record.access;
  const open =
    record.files?.enabled === true &&
    a?.record === 'public' &&
    a.files === 'public' &&
    a.embargo?.active !== true;
  if (!open) return [];
  const base = `${ctx.siteUrl.replace(/\/+$/, '')}/api/records/${record.id}/files/`;
  return Object.values(record.files?.entries ?? {})
    .filter((f) => f.status === undefined || f.status === 'completed')
    .map((f) => ({
      key: f.key,
      size: f.size ?? 0,
      mimetype: f.mimetype ?? 'application/octet-stream',
      url: `${base}${encodeURIComponent(f.key)}/content`,
    }));
}

/** The URLs of the record's licences: a vocabulary licence's `url`, else the link given with it. */
export function licenseUrls(record: ExportRecord): string[] {
  return (record.metadata.rights ?? [])
    .map((r) => r.props?.url || r.link)
    .filter((u): u is string => Boolean(u));
}

/** A person's display name as InvenioRDM builds it: "Family, Given", else the name given. */
export function personName(p: {
  name?: string;
  given_name?: string;
  family_name?: string;
}): string {
  return p.name?.trim() || [p.family_name, p.given_name].filter((s) => s?.trim()).join(', ') || '';
}

/** `[year, month?, day?]` of the first date of an EDTF date or interval ("2024-05/2024-06"). */
export function dateParts(edtf: string | undefined): number[] {
  const first = (edtf ?? '').split('/')[0] ?? '';
  const m = /^(\d{4})(?:-(\d{2}))?(?:-(\d{2}))?$/.exec(first);
  if (!m) return [];
  return [m[1], m[2], m[3]].filter((x) => x !== undefined).map(Number);
}

/** The ORCID (or other scheme) id of a creator as a resolvable URL, if it has one. */
export function identifierUrl(
  ids: Array<{ scheme?: string; identifier: string }> | undefined,
  scheme: 'orcid' | 'ror',
): string | undefined {
  const id = ids?.find((i) => i.scheme?.toLowerCase() === scheme)?.identifier.trim();
  if (!id) return undefined;
  if (/^https?:\/\//i.test(id)) return id;
  return scheme === 'orcid' ? `https://orcid.org/${id}` : `https://ror.org/${id}`;
}

let spdxIds: Map<string, string> | undefined;

/**
 * A licence's SPDX identifier in SPDX's own spelling ("CC-BY-4.0"): records hold InvenioRDM's
 * lower-case vocabulary ids, which CITATION.cff's closed list and SPDX's URLs do not accept.
 */
export function spdxId(rights: {
  id?: string;
  props?: Record<string, string>;
}): string | undefined {
  if (!rights.id || (rights.props?.scheme ?? 'spdx') !== 'spdx') return undefined;
  spdxIds ??= new Map(Object.keys(spdxLicenses).map((id) => [id.toLowerCase(), id]));
  return spdxIds.get(rights.id.toLowerCase());
}

/** Hosts whose URLs are source repositories whatever relation the record gives them. */
const FORGES = /^https?:\/\/(www\.)?(github\.com|gitlab\.com|bitbucket\.org|codeberg\.org)\//i;

/**
 * The record's source code repository, as CodeMeta and CITATION.cff name it: a URL the record
 * is a supplement to (how InvenioRDM's GitHub integration links a release to its repository),
 * else the first URL on a public forge.
 */
export function codeRepository(record: ExportRecord): string | undefined {
  const urls = (record.metadata.related_identifiers ?? []).filter(
    (r) => r.scheme?.toLowerCase() === 'url' && /^https?:\/\//i.test(r.identifier.trim()),
  );
  const supplemented = urls.find((r) => r.relation_type?.id === 'issupplementto');
  return (supplemented ?? urls.find((r) => FORGES.test(r.identifier.trim())))?.identifier.trim();
}
