import { RECORD_FACETS, type Aggregations, type RecordFacet } from '@cairn/shared';
import { searchLinks } from '../../lib/search.js';
import { RenderCache } from '../../lib/render-cache.js';
import type { VocabulariesService } from '../vocabularies/vocabularies.service.js';
import {
  presentDraft,
  presentRecord,
  resourceTypeLabel,
  withIndexedLookup,
  type PresentOptions,
} from './records.presenter.js';
import type { RecordHits, UserHits } from './records-search.service.js';
import type { DraftResult, RecordResult } from './records.shared.js';
import { accessStatusTitle, l10n } from './records.ui.js';

/** One facet bucket in InvenioRDM's search envelope. */
function bucket(key: string, count: number, label: string, selected: boolean) {
  return { key, doc_count: count, label, is_selected: selected, inner: { buckets: [] } };
}

const FACET_TITLES: Record<RecordFacet, Record<string, string>> = {
  resource_type: { en: 'Resource types', de: 'Ressourcentypen' },
  access_status: { en: 'Access status', de: 'Zugriffsstatus' },
  file_type: { en: 'File types', de: 'Dateitypen' },
  language: { en: 'Languages', de: 'Sprachen' },
  subject: { en: 'Subjects', de: 'Schlagwörter' },
  community: { en: 'Communities', de: 'Communities' },
  publication_date: { en: 'Publication year', de: 'Erscheinungsjahr' },
};

/** Buckets a facet lists at most (InvenioRDM's terms size); a selected value is always listed. */
const FACET_SIZE = 10;

/** Facets whose every value is listed: few values, and a reader expects to see them all. */
const LISTED_WHOLE = new Set<RecordFacet>(['resource_type', 'access_status', 'publication_date']);

/** The search's facets in InvenioRDM's `aggregations` shape, each bucket labelled. */
function aggregationsOf(result: RecordHits, o: PresentOptions): Aggregations {
  const facets = result.facets;
  const label = (facet: RecordFacet, b: { key: string; label?: string }): string => {
    switch (facet) {
      case 'resource_type':
        return resourceTypeLabel(o, b.key);
      case 'access_status':
        return accessStatusTitle(b.key, o.locale);
      case 'language':
        return l10n(o.vocab('languages', b.key)?.title, o.locale) || b.key;
      case 'file_type':
        return b.key.toUpperCase();
      default:
        return b.label || b.key;
    }
  };
  const subtypes = facets.resource_subtype ?? [];
  const aggregations: Aggregations = {};
  for (const facet of RECORD_FACETS) {
    const counts = facets[facet];
    if (counts === undefined) continue;
    const selected = new Set(result.params.filters[facet] ?? []);
    const ordered = [...counts].sort((a, b) =>
      facet === 'publication_date'
        ? b.key.localeCompare(a.key)
        : b.count - a.count || a.key.localeCompare(b.key),
    );
    const shown = LISTED_WHOLE.has(facet)
      ? ordered
      : ordered.filter((b, i) => i < FACET_SIZE || selected.has(b.key));
    aggregations[facet] = {
      label: l10n(FACET_TITLES[facet], o.locale),
      buckets: shown.map((b) => ({
        key: b.key,
        doc_count: b.count,
        label: label(facet, b),
        is_selected: selected.has(b.key),
        ...(facet === 'resource_type'
          ? {
              inner: {
                buckets: subtypes
                  .filter((s) => s.key.startsWith(`${b.key}-`))
                  .sort((x, y) => y.count - x.count || x.key.localeCompare(y.key))
                  .map((s) => ({
                    key: s.key,
                    doc_count: s.count,
                    label: resourceTypeLabel(o, s.key),
                    is_selected: selected.has(s.key),
                  })),
              },
            }
          : {}),
      })),
    };
  }
  return aggregations;
}

/**
 * Drafts, records and searches as the API answers them: the presenters given the large
 * vocabularies' entries, the render cache of the hottest reads, and the search envelopes with
 * their facets. The routes only choose the representation and send.
 */
export class RecordsRenderer {
  // Reading a draft or record is the hottest path (editors reload, landing pages are visited):
  // rendering and serialising cost more than the two queries before them.
  private readonly rendered = new RenderCache(32 * 1024 * 1024);

  constructor(private readonly vocabularies: VocabulariesService) {}

  private async cached(
    key: string | undefined,
    render: () => Promise<Record<string, unknown>>,
  ): Promise<string> {
    let body = key === undefined ? undefined : this.rendered.get(key);
    if (body === undefined) {
      body = JSON.stringify(await render());
      if (key !== undefined) this.rendered.set(key, body);
    }
    return body;
  }

  /**
   * A draft's JSON text. With `cacheAs` (the media type of a read) it is kept for the next read of
   * the same revision, unless it carries errors or expanded parts, which depend on more than the
   * key names.
   */
  async draft(result: DraftResult, o: PresentOptions, cacheAs?: string): Promise<string> {
    const { row, parent } = result;
    const key =
      cacheAs !== undefined && result.errors.length === 0 && !o.expand
        ? `d:${row.id}:${row.revisionId}:${row.updatedAt}:${parent.updatedAt}:${result.isPublished}:${result.isLatestDraft}:${cacheAs}:${o.locale}:${this.vocabularies.generation}:${o.savedBy?.name ?? ''}`
        : undefined;
    return this.cached(key, async () => {
      const body = presentDraft(row, parent, {
        ...(await withIndexedLookup(o, [row], this.vocabularies)),
        isPublished: result.isPublished,
        isLatestDraft: result.isLatestDraft,
      });
      if (result.errors.length > 0) body.errors = result.errors;
      return body;
    });
  }

  /** A published record's JSON text, kept as `draft` keeps drafts. */
  async record(result: RecordResult, o: PresentOptions, cacheAs?: string): Promise<string> {
    const { row, parent } = result;
    const key =
      cacheAs !== undefined && !o.expand
        ? `r:${row.id}:${row.revisionId}:${row.updatedAt}:${row.isLatest}:${parent.updatedAt}:${cacheAs}:${o.locale}:${this.vocabularies.generation}`
        : undefined;
    return this.cached(key, async () =>
      presentRecord(row, parent, await withIndexedLookup(o, [row], this.vocabularies)),
    );
  }

  /** Published records found, in the search envelope; `self` is the search's own address. */
  async hits(
    result: RecordHits,
    o: PresentOptions,
    self: string,
    aggregations: Record<string, unknown> = {},
  ): Promise<Record<string, unknown>> {
    const withLookup = await withIndexedLookup(
      o,
      result.records.map((r) => r.row),
      this.vocabularies,
    );
    return {
      hits: {
        hits: result.records.map((r) => presentRecord(r.row, r.parent, withLookup)),
        total: result.total,
      },
      aggregations,
      sortBy: result.params.sort,
      page: result.params.page,
      links: searchLinks(self, result.params, result.total),
    };
  }

  /** A records search with its facets, labelled in the page's language. */
  async search(
    result: RecordHits,
    o: PresentOptions,
    self: string,
  ): Promise<Record<string, unknown>> {
    return this.hits(result, o, self, aggregationsOf(result, o));
  }

  /** The caller's drafts and records, with the published / unpublished facet. */
  async userRecords(
    result: UserHits,
    o: PresentOptions,
    self: string,
  ): Promise<Record<string, unknown>> {
    const withLookup = await withIndexedLookup(
      o,
      result.hits.map((h) => h.row),
      this.vocabularies,
    );
    const selected = result.params.filters.is_published?.[0];
    return {
      hits: {
        hits: result.hits.map((h) =>
          h.kind === 'draft'
            ? presentDraft(h.row, h.parent, {
                ...withLookup,
                isPublished: h.isPublished,
                isLatestDraft: true,
              })
            : presentRecord(h.row, h.parent, withLookup),
        ),
        total: result.total,
      },
      aggregations: {
        is_published: {
          label: 'Status',
          buckets: [
            bucket('true', result.published, 'Published', selected === 'true'),
            bucket('false', result.drafts, 'Unpublished', selected === 'false'),
          ],
        },
      },
      sortBy: result.params.sort,
      page: result.params.page,
      links: searchLinks(self, result.params, result.total),
    };
  }
}
