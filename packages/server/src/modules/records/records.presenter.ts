import {
  computeAccessStatus,
  computeRecordStatus,
  type RecordData,
  type RecordJsonSchema,
} from '@cairn/shared';
import type { z } from 'zod';
import { readJson } from '../../database/schema.js';
import type { DraftRow, ParentData, ParentRow, RecordRow } from './records.rows.js';
import { buildUi, l10n } from './records.ui.js';
import { readSummary } from '../files/files.summary.js';
import { oaiIdentifier } from './record-id.js';
import type { IndexedLookup } from '../vocabularies/vocabularies.service.js';
import {
  indexedLookupFor,
  ownedJson,
  withVocabularyTitles,
  type IndexedLookupSource,
  type VocabularyOf,
} from './records.vocabulary-titles.js';

/** A draft or record as the API answers it: the contract the web app parses. */
export type RecordJson = z.input<typeof RecordJsonSchema>;

export interface PresentOptions {
  siteUrl: string;
  ui: boolean;
  /**
   * With `ui`: false leaves out `ui.creators` and `ui.contributors`, which repeat the metadata's
   * people with labels (the landing page shows them from the metadata; 430 KB for 2,000).
   */
  uiPeople?: boolean;
  expand: boolean;
  locale: string;
  vocab: VocabularyOf;
  /** Entries of the large vocabularies the records refer to (see `withIndexedLookup`). */
  indexed?: IndexedLookup;
  owner?: { id: number; email: string; name: string };
  /** A draft's: who saved it last, when known (`updated_by`, a Cairn extension). */
  savedBy?: { id: number; name: string };
  /** With expand: the review's receiver and the default community, as community stubs. */
  expandedParent?: { review?: Record<string, unknown>; default?: Record<string, unknown> };
}

/** InvenioRDM's timestamp form: microseconds and an explicit +00:00 offset. */
export function invenioTime(iso: string): string {
  return iso.replace(/\.(\d{3})Z$/, '.$1000+00:00').replace(/Z$/, '+00:00');
}

function draftExpiry(iso: string): string {
  return iso
    .replace('T', ' ')
    .replace(/\.(\d{3})Z$/, '.$1000')
    .replace(/Z$/, '');
}

/** The files section: settings from the record data, entries from the stored files summary. */
function filesSection(data: RecordData, summaryValue: unknown) {
  if (!data.files.enabled)
    return { enabled: false, order: [], count: 0, total_bytes: 0, entries: {} };
  const summary = readSummary(summaryValue);
  const entries: Record<string, unknown> = {};
  for (const [key, { status, ...entry }] of Object.entries(summary.entries ?? {})) {
    entries[key] = status === 'completed' ? entry : { ...entry, status };
  }
  return {
    enabled: true,
    order: [],
    count: summary.count,
    total_bytes: summary.total_bytes,
    entries,
    // Cairn extension: past FILES_EMBEDDED_MAX files the entries are left out, and read from
    // the files listing (`links.files`) a page at a time.
    ...(summary.entries ? {} : { entries_omitted: true }),
    ...(data.files.default_preview ? { default_preview: data.files.default_preview } : {}),
  };
}

function presentParent(parent: ParentRow, data: ParentData) {
  return {
    id: parent.id,
    access: data.access,
    communities: data.communities,
    pids: data.pids,
    ...(data.review ? { review: data.review } : {}),
  };
}

function doiOf(data: RecordData): string | undefined {
  return data.pids.doi?.identifier;
}

/**
 * Links both a draft and a record carry. InvenioRDM lists more (IIIF, media files, quota
 * increase, deletion and file-modification requests); Cairn
 * answers none of those routes yet, and a client that follows a link must not meet a 404, so
 * they are left out until their routes exist.
 */
function commonLinks(api: string, id: string, site: string, published: boolean) {
  return {
    access_links: `${api}/records/${id}/access/links`,
    access_grants: `${api}/records/${id}/access/grants`,
    access_users: `${api}/records/${id}/access/users`,
    access: `${api}/records/${id}/access`,
    // Access is asked for a published record's files: a draft never published has none to ask for.
    ...(published ? { access_request: `${api}/records/${id}/access/request` } : {}),
    versions: `${api}/records/${id}/versions`,
    communities: `${api}/records/${id}/communities`,
    requests: `${api}/records/${id}/requests`,
    preview_html: `${site}/records/${id}?preview=1`,
  };
}

/** Draft JSON in InvenioRDM's shape, with the links of the routes Cairn answers. */
export function presentDraft(
  row: DraftRow,
  parent: ParentRow,
  o: PresentOptions & {
    isPublished: boolean;
    isLatestDraft: boolean;
    reviewStatus?: 'created' | 'submitted' | 'declined' | 'expired' | 'accepted' | 'cancelled';
  },
): RecordJson {
  const data = ownedJson<RecordData>(row.data);
  const parentData = readJson<ParentData>(parent.data);
  const site = o.siteUrl;
  const api = `${site}/api`;
  const id = row.id;
  const status = computeRecordStatus({
    isPublishedRecord: o.isPublished,
    versionIndex: row.versionIndex,
    reviewStatus: o.reviewStatus ?? parentData.review?.status,
  });
  const accessStatus = computeAccessStatus(data.access, data.files.enabled);
  const links: Record<string, string> = {
    self: `${api}/records/${id}/draft`,
    self_html: `${site}/uploads/${id}`,
    // The record exists only once this draft's id has been published.
    ...(o.isPublished
      ? { record: `${api}/records/${id}`, record_html: `${site}/records/${id}` }
      : {}),
    publish: `${api}/records/${id}/draft/actions/publish`,
    review: `${api}/records/${id}/draft/review`,
    files: `${api}/records/${id}/draft/files`,
    archive: `${api}/records/${id}/draft/files-archive`,
    reserve_doi: `${api}/records/${id}/draft/pids/doi`,
    ...commonLinks(api, id, site, o.isPublished),
  };
  const doi = doiOf(data);
  const json: RecordJson = {
    id,
    created: invenioTime(row.createdAt),
    updated: invenioTime(row.updatedAt),
    revision_id: row.revisionId,
    links,
    metadata: withVocabularyTitles(data, o.vocab, o.indexed),
    custom_fields: data.custom_fields,
    access: { ...data.access, status: accessStatus },
    files: filesSection(data, row.filesSummary),
    media_files: { enabled: false, order: [], count: 0, total_bytes: 0, entries: {} },
    pids: data.pids,
    parent: presentParent(parent, parentData),
    versions: { index: row.versionIndex, is_latest: false, is_latest_draft: o.isLatestDraft },
    is_published: o.isPublished,
    is_draft: true,
    status,
    expires_at: draftExpiry(row.expiresAt),
    // So that an editor whose save was refused can say whose came first.
    ...(o.savedBy ? { updated_by: { user: String(o.savedBy.id), name: o.savedBy.name } } : {}),
  };
  if (parentData.review)
    links['submit-review'] = `${api}/records/${id}/draft/actions/submit-review`;
  if (doi && data.pids.doi?.provider !== 'external') links.doi = `https://doi.org/${doi}`;
  if (o.expand) json.expanded = expanded(o);
  if (o.ui)
    json.ui = buildUi(data, {
      locale: o.locale,
      vocab: o.vocab,
      accessStatus,
      created: row.createdAt,
      updated: row.updatedAt,
      isDraft: true,
      people: o.uiPeople ?? true,
    });
  return json;
}

function expanded(o: PresentOptions) {
  return {
    parent: {
      access: {
        owned_by: o.owner
          ? {
              id: String(o.owner.id),
              username: null,
              profile: { full_name: o.owner.name },
              email: o.owner.email,
            }
          : null,
      },
      communities: o.expandedParent?.default ? { default: o.expandedParent.default } : {},
      review: o.expandedParent?.review ?? null,
    },
  };
}

/**
 * Published record JSON in InvenioRDM's shape, with the links of the routes Cairn answers (a
 * parent's id leads to its latest version).
 */
export function presentRecord(row: RecordRow, parent: ParentRow, o: PresentOptions): RecordJson {
  const data = ownedJson<RecordData>(row.data);
  const parentData = readJson<ParentData>(parent.data);
  const site = o.siteUrl;
  const api = `${site}/api`;
  const id = row.id;
  const accessStatus = computeAccessStatus(data.access, data.files.enabled);
  const links: Record<string, string> = {
    self: `${api}/records/${id}`,
    self_html: `${site}/records/${id}`,
    latest: `${api}/records/${id}/versions/latest`,
    latest_html: `${site}/records/${id}/latest`,
    draft: `${api}/records/${id}/draft`,
    files: `${api}/records/${id}/files`,
    archive: `${api}/records/${id}/files-archive`,
    parent: `${api}/records/${parent.id}`,
    parent_html: `${site}/records/${parent.id}`,
    'communities-suggestions': `${api}/records/${id}/communities-suggestions`,
    ...commonLinks(api, id, site, true),
  };
  const doi = doiOf(data);
  if (doi) {
    links.doi = `https://doi.org/${doi}`;
    links.self_doi = `https://doi.org/${doi}`;
  }
  const json: RecordJson = {
    id,
    created: invenioTime(row.createdAt),
    updated: invenioTime(row.updatedAt),
    revision_id: row.revisionId,
    links,
    metadata: withVocabularyTitles(data, o.vocab, o.indexed),
    custom_fields: data.custom_fields,
    access: { ...data.access, status: accessStatus },
    files: filesSection(data, row.filesSummary),
    media_files: { enabled: false, order: [], count: 0, total_bytes: 0, entries: {} },
    // Derived, not read from the data: records published before identifiers dropped the port,
    // or before the site moved, still answer the identifier the OAI-PMH endpoint finds them by.
    pids: { ...data.pids, oai: { identifier: oaiIdentifier(site, id), provider: 'oai' } },
    parent: presentParent(parent, parentData),
    versions: { index: row.versionIndex, is_latest: row.isLatest === 1 },
    is_published: true,
    is_draft: false,
    status: 'published',
    stats: {
      this_version: {
        views: 0,
        unique_views: 0,
        downloads: 0,
        unique_downloads: 0,
        data_volume: 0,
      },
      all_versions: {
        views: 0,
        unique_views: 0,
        downloads: 0,
        unique_downloads: 0,
        data_volume: 0,
      },
    },
  };
  if (o.expand) json.expanded = expanded(o);
  if (o.ui)
    json.ui = buildUi(data, {
      locale: o.locale,
      vocab: o.vocab,
      accessStatus,
      created: row.createdAt,
      updated: row.updatedAt,
      isDraft: false,
      people: o.uiPeople ?? true,
    });
  return json;
}

/** Label of a resource type bucket in search aggregations. */
export function resourceTypeLabel(o: PresentOptions, id: string): string {
  return l10n(o.vocab('resourcetypes', id)?.title, o.locale) || id;
}

/**
 * `o` with the entries of the large vocabularies that the rows refer to, fetched in one query per
 * type before rendering (presenters are synchronous).
 */
export async function withIndexedLookup(
  o: PresentOptions,
  rows: ReadonlyArray<{ data: unknown }>,
  source: IndexedLookupSource,
): Promise<PresentOptions> {
  const indexed = await indexedLookupFor(rows, source);
  return indexed ? { ...o, indexed } : o;
}
