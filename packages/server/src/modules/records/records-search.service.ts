import type { User } from '../users/users.service.js';
import { checkSearchText, searchParams, type SearchParams } from '../../lib/search.js';
import type { RecordsRepository } from './records.repository.js';
import type { ParentRow, RecordRow, DraftRow } from './records.rows.js';
import type { RecordAccessService } from './records-access.service.js';
import type {
  FacetCounts,
  RecordSearch,
  RecordsSearchRepository,
} from './records-search.repository.js';
import type { UserRecordsSearchRepository } from './user-records-search.repository.js';

export { RECORD_SORTS, USER_RECORD_SORTS } from '@cairn/shared';
import {
  parseSearchQuery,
  RECORD_FACETS,
  SearchQueryError,
  type SearchQuery,
  type SearchQueryValues,
} from '@cairn/shared';
import { AppError } from '../../errors.js';
import { RECORD_SEARCH_FIELDS } from './search/compile.js';

export interface RecordHits {
  params: SearchParams;
  records: Array<{ row: RecordRow; parent: ParentRow }>;
  total: number;
  /** Counted over the query's hits before facet filters; empty for a record's versions. */
  facets: Partial<FacetCounts>;
}

export interface UserHits {
  params: SearchParams;
  hits: Array<
    | { kind: 'draft'; row: DraftRow; parent: ParentRow; isPublished: boolean }
    | { kind: 'record'; row: RecordRow; parent: ParentRow }
  >;
  total: number;
  published: number;
  drafts: number;
}

/** `q` as a tree; a query that cannot be parsed is a 400 saying where and why. */
function parsedQuery(q: string): SearchQuery | null {
  try {
    return parseSearchQuery(q, RECORD_SEARCH_FIELDS);
  } catch (error) {
    if (!(error instanceof SearchQueryError)) throw error;
    // The limits every search route shares keep their one message.
    if (error.reason === 'too-long' || error.reason === 'too-many-words') checkSearchText('q', q);
    throw new AppError('INVALID_QUERY', `Invalid query string syntax. ${error.message}`, [
      { field: 'q', messages: [error.message] },
    ]);
  }
}

/**
 * A facet's filter values as the repository matches them: InvenioRDM's clients name a subtype with
 * its type (`publication::publication-article`); the route's schema refused values that can never
 * match.
 */
function facetValues(values: string[]): string[] {
  return [...new Set(values.map((v) => v.split('::').pop() ?? v))];
}

function isTrue(values: string[] | undefined): boolean {
  return values?.some((v) => v === 'true' || v === '1') ?? false;
}

/** Searches over published records and over a user's own uploads (InvenioRDM's search contract). */
export class RecordsSearchService {
  constructor(
    private readonly repo: RecordsRepository,
    private readonly searches: RecordsSearchRepository,
    private readonly userSearches: UserRecordsSearchRepository,
    private readonly access: RecordAccessService,
  ) {}

  private async withParents<T extends { parentId: string }>(
    rows: T[],
  ): Promise<Array<{ row: T; parent: ParentRow }>> {
    const parents = new Map(
      (await this.repo.getParents(rows.map((r) => r.parentId))).map((p) => [p.id, p]),
    );
    return rows.map((row) => ({ row, parent: parents.get(row.parentId)! }));
  }

  /**
   * GET /api/records: published, visible, latest versions unless `allversions`. Within one
   * community (`scope.communityId`), `scope.seesAll` says the caller may view all its records.
   */
  async search(
    user: User | undefined,
    query: SearchQueryValues,
    scope: { communityId?: string; seesAll?: boolean } = {},
  ): Promise<RecordHits> {
    const params = searchParams(query, {
      defaultSort: (q) => (q ? 'bestmatch' : 'newest'),
      filters: [...RECORD_FACETS, 'allversions'],
    });
    const viewerId = user?.isAdmin || scope.seesAll ? undefined : (user?.id ?? null);
    const filters: RecordSearch['filters'] = {};
    for (const facet of RECORD_FACETS) {
      const values = params.filters[facet];
      if (values !== undefined) filters[facet] = facetValues(values);
    }
    const { rows, total, facets } = await this.searches.searchRecords({
      query: parsedQuery(params.q),
      sort: params.sort,
      offset: (params.page - 1) * params.size,
      limit: params.size,
      allVersions: isTrue(params.filters.allversions),
      filters,
      viewerId,
      ...(scope.communityId === undefined ? {} : { communityId: scope.communityId }),
    });
    return { params, records: await this.withParents(rows), total, facets };
  }

  /**
   * GET /api/records/{id}/versions: the published versions of the parent the caller may see
   * (restricted ones only to the owner), newest first.
   */
  async versions(
    user: User | undefined,
    id: string,
    query: SearchQueryValues,
  ): Promise<RecordHits> {
    const { parent, includeRestricted } = await this.access.parentForVersions(user, id);
    const params = searchParams(query, { defaultSort: () => 'version', filters: [] });
    const { rows, total } = await this.repo.listVersions(
      parent.id,
      (params.page - 1) * params.size,
      params.size,
      includeRestricted,
    );
    return { params, records: rows.map((row) => ({ row, parent })), total, facets: {} };
  }

  /**
   * GET /api/user/records: the caller's drafts and records, with the `is_published` facet; `q` is
   * read as `/api/records` reads it. With `shared_with_me=true`, those granted to the caller
   * instead (drafts only where the grant goes beyond `view`).
   */
  async userRecords(user: User, query: SearchQueryValues): Promise<UserHits> {
    const params = searchParams(query, {
      defaultSort: (q) => (q ? 'bestmatch' : 'updated-desc'),
      filters: ['is_published', 'shared_with_me', 'allversions'],
    });
    const published = params.filters.is_published?.[0];
    const shared = params.filters.shared_with_me?.[0];
    const result = await this.userSearches.searchUserRecords({
      ownerId: user.id,
      sharedWithMe: shared === 'true' || shared === '1',
      query: parsedQuery(params.q),
      sort: params.sort,
      offset: (params.page - 1) * params.size,
      limit: params.size,
      ...(published === undefined
        ? {}
        : { isPublished: published === 'true' || published === '1' }),
    });
    const draftIds = result.hits.filter((h) => h.kind === 'draft').map((h) => h.id);
    const recordIds = result.hits.filter((h) => h.kind === 'record').map((h) => h.id);
    const [drafts, records, publishedOfDrafts] = await Promise.all([
      this.repo.getDrafts(draftIds),
      this.repo.getRecords(recordIds),
      this.repo.getRecords(draftIds),
    ]);
    const parents = new Map(
      (await this.repo.getParents([...drafts, ...records].map((r) => r.parentId))).map((p) => [
        p.id,
        p,
      ]),
    );
    const draftById = new Map(drafts.map((d) => [d.id, d]));
    const recordById = new Map(records.map((r) => [r.id, r]));
    const publishedIds = new Set(publishedOfDrafts.map((r) => r.id));
    const hits: UserHits['hits'] = [];
    for (const h of result.hits) {
      if (h.kind === 'draft') {
        const row = draftById.get(h.id);
        if (row)
          hits.push({
            kind: 'draft',
            row,
            parent: parents.get(row.parentId)!,
            isPublished: publishedIds.has(row.id),
          });
      } else {
        const row = recordById.get(h.id);
        if (row) hits.push({ kind: 'record', row, parent: parents.get(row.parentId)! });
      }
    }
    return {
      params,
      hits,
      total: result.total,
      published: result.published,
      drafts: result.drafts,
    };
  }
}
