import {
  collectVocabularyRefs,
  computeAccessStatus,
  computeRecordStatus,
  type RecordData,
} from '@cairn/shared';
import { readJson } from '../../database/schema.js';
import type { DraftRow, ParentRow, RecordRow } from './records.repository.js';
import { buildUi, l10n } from './records.ui.js';
import { readSummary } from '../files/files.summary.js';
import type { VocabularyEntry } from '../vocabularies/vocabularies.repository.js';
import type { IndexedLookup } from '../vocabularies/vocabularies.service.js';

export interface ParentData {
  access: {
    owned_by: { user: string };
    settings: Record<string, unknown>;
    grants: unknown[];
    links: unknown[];
  };
  communities: Record<string, unknown>;
  pids: Record<string, unknown>;
  /** The community-submission request of a first-version draft, its status copied in. */
  review?: ParentReview;
}

export interface ParentReview {
  id: string;
  type: 'community-submission';
  receiver: { community: string };
  status: 'created' | 'submitted' | 'declined' | 'expired' | 'accepted' | 'cancelled';
}

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
  vocab: (type: string, id: string) => VocabularyEntry | undefined;
  /** Entries of the large vocabularies the records refer to (see `withIndexedLookup`). */
  indexed?: IndexedLookup;
  owner?: { id: number; email: string; name: string };
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

/**
 * A private copy of a JSON column: the presenter decorates it in place. SQLite hands out text,
 * parsed afresh here; pg hands out an object that the row still shares, so that one is cloned.
 */
function ownedJson<T>(value: unknown): T {
  return (typeof value === 'string' ? JSON.parse(value) : structuredClone(value)) as T;
}

/** Vocabulary references gain their `title` (and licence props) on the way out, as InvenioRDM dumps them. */
function withVocabularyTitles(
  data: RecordData,
  vocab: PresentOptions['vocab'],
  indexed: IndexedLookup = () => undefined,
): RecordData['metadata'] {
  const m = data.metadata as Record<string, unknown>;
  const title = (type: string, ref: unknown) => {
    const r = ref as { id?: string } | undefined;
    if (!r?.id) return;
    const e = vocab(type, r.id);
    if (e) (r as Record<string, unknown>).title = e.title;
  };
  const each = (key: string, fn: (item: Record<string, unknown>) => void) => {
    const list = m[key];
    if (Array.isArray(list))
      for (const item of list)
        if (item && typeof item === 'object') fn(item as Record<string, unknown>);
  };
  title('resourcetypes', m.resource_type);
  each('languages', (l) => title('languages', l));
  each('additional_titles', (t) => {
    title('titletypes', t.type);
    title('languages', t.lang);
  });
  each('additional_descriptions', (d) => {
    title('descriptiontypes', d.type);
    title('languages', d.lang);
  });
  each('dates', (d) => title('datetypes', d.type));
  const affiliationNames = (person: Record<string, unknown>) => {
    if (!Array.isArray(person.affiliations)) return;
    for (const affiliation of person.affiliations as Array<{ id?: string; name?: string }>) {
      const entry = affiliation.id ? indexed('affiliations', affiliation.id) : undefined;
      if (typeof entry?.name === 'string') affiliation.name = entry.name;
    }
  };
  each('creators', (c) => {
    title('creatorsroles', c.role);
    affiliationNames(c);
  });
  each('contributors', (c) => {
    title('contributorsroles', c.role);
    affiliationNames(c);
  });
  each('subjects', (s) => {
    const entry = typeof s.id === 'string' ? indexed('subjects', s.id) : undefined;
    if (!entry) return;
    s.subject = entry.subject;
    s.scheme = entry.scheme;
  });
  each('funding', (f) => {
    const funder = f.funder as { id?: string } | undefined;
    const funderEntry = funder?.id ? indexed('funders', funder.id) : undefined;
    if (funder && typeof funderEntry?.name === 'string') {
      (funder as Record<string, unknown>).name = funderEntry.name;
    }
    const award = f.award as { id?: string } | undefined;
    const awardEntry = award?.id ? indexed('awards', award.id) : undefined;
    if (award && awardEntry) {
      for (const key of ['title', 'number', 'acronym', 'program', 'identifiers'] as const) {
        if (awardEntry[key] !== undefined)
          (award as Record<string, unknown>)[key] = awardEntry[key];
      }
    }
  });
  each('related_identifiers', (r) => {
    title('relationtypes', r.relation_type);
    title('resourcetypes', r.resource_type);
  });
  each('rights', (r) => {
    if (typeof r.id !== 'string') return;
    const e = vocab('licenses', r.id);
    if (!e) return;
    r.title = e.title;
    if (e.description) r.description = e.description;
    if (e.icon) r.icon = e.icon;
    r.props = { url: e.props?.url ?? '', scheme: e.props?.scheme ?? 'spdx' };
  });
  return m;
}

/** The files section: settings from the record data, entries from the stored files summary. */
function filesSection(data: RecordData, summaryValue: unknown) {
  if (!data.files.enabled)
    return { enabled: false, order: [], count: 0, total_bytes: 0, entries: {} };
  const summary = readSummary(summaryValue);
  const entries: Record<string, unknown> = {};
  for (const [key, { status, ...entry }] of Object.entries(summary.entries)) {
    entries[key] = status === 'completed' ? entry : { ...entry, status };
  }
  return {
    enabled: true,
    order: [],
    count: summary.count,
    total_bytes: summary.total_bytes,
    entries,
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
 * Links both a draft and a record carry. InvenioRDM lists more (IIIF, media files, access
 * grants and links, quota increase, deletion and file-modification requests); Cairn answers
 * none of those routes, and a client that follows a link must not meet a 404, so they are left
 * out until their routes exist.
 */
function commonLinks(api: string, id: string, site: string) {
  return {
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
): Record<string, unknown> {
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
    ...commonLinks(api, id, site),
  };
  const doi = doiOf(data);
  const json: Record<string, unknown> = {
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
export function presentRecord(
  row: RecordRow,
  parent: ParentRow,
  o: PresentOptions,
): Record<string, unknown> {
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
    ...commonLinks(api, id, site),
  };
  const doi = doiOf(data);
  if (doi) {
    links.doi = `https://doi.org/${doi}`;
    links.self_doi = `https://doi.org/${doi}`;
  }
  const json: Record<string, unknown> = {
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

/** What `withIndexedLookup` needs of a vocabularies service. */
export interface IndexedLookupSource {
  indexedLookup(refs: Iterable<{ type: string; id: string }>): Promise<IndexedLookup>;
}

// Only these fields refer to the large vocabularies; a record without them needs no query.
const INDEXED_FIELDS = /"(?:affiliations|subjects|funding)"/;

/**
 * `o` with the entries of the large vocabularies that the rows refer to, fetched in one query per
 * type before rendering (presenters are synchronous).
 */
export async function withIndexedLookup(
  o: PresentOptions,
  rows: ReadonlyArray<{ data: unknown }>,
  source: IndexedLookupSource,
): Promise<PresentOptions> {
  const refs: Array<{ type: string; id: string }> = [];
  for (const row of rows) {
    if (typeof row.data === 'string' && !INDEXED_FIELDS.test(row.data)) continue;
    refs.push(...collectVocabularyRefs(readJson<RecordData>(row.data)));
  }
  if (refs.length === 0) return o;
  return { ...o, indexed: await source.indexedLookup(refs) };
}
