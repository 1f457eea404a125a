import { REQUEST_TYPE_IDS } from '@cairn/shared';

export { inboxKeys, useAwaitingCount, useRequestList } from '../shared/request-lists';

export { REQUEST_TYPE_IDS };

export const INBOX_PAGE_SIZE = 20;

export const INBOX_SORTS = ['newest', 'oldest', 'updated'] as const;
export type InboxSort = (typeof INBOX_SORTS)[number];
export const INBOX_STATES = ['open', 'closed', 'all'] as const;
export type InboxOpenness = (typeof INBOX_STATES)[number];

/** The inbox's filters, as its address holds them (`?state=closed&type=…&mine=1&page=2`). */
export interface InboxQuery {
  q: string;
  state: InboxOpenness;
  /** A request type id, or '' for every type. */
  type: string;
  /** A community uuid, or '' for every community (the personal inbox only). */
  community: string;
  /** Only the requests the person created. */
  mine: boolean;
  sort: InboxSort;
  page: number;
}

export const DEFAULT_INBOX_QUERY: InboxQuery = {
  q: '',
  state: 'open',
  type: '',
  community: '',
  mine: false,
  sort: 'newest',
  page: 1,
};

const oneOf = <T extends string>(values: readonly T[], value: string | null, fallback: T): T =>
  (values as readonly string[]).includes(value ?? '') ? (value as T) : fallback;

/** The inbox's query from its page address; anything unknown falls back to the default. */
export function readInboxQuery(params: URLSearchParams): InboxQuery {
  const page = Number(params.get('page'));
  const type = params.get('type') ?? '';
  return {
    q: params.get('q') ?? '',
    state: oneOf(INBOX_STATES, params.get('state'), 'open'),
    type: (REQUEST_TYPE_IDS as readonly string[]).includes(type) ? type : '',
    community: params.get('community') ?? '',
    mine: params.get('mine') === '1',
    sort: oneOf(INBOX_SORTS, params.get('sort'), 'newest'),
    page: Number.isInteger(page) && page > 0 ? page : 1,
  };
}

/** The page address's query for `query`: only what differs from the default. */
export function writeInboxQuery(query: InboxQuery): URLSearchParams {
  const out = new URLSearchParams();
  if (query.q) out.set('q', query.q);
  if (query.state !== 'open') out.set('state', query.state);
  if (query.type) out.set('type', query.type);
  if (query.community) out.set('community', query.community);
  if (query.mine) out.set('mine', '1');
  if (query.sort !== 'newest') out.set('sort', query.sort);
  if (query.page > 1) out.set('page', String(query.page));
  return out;
}

/** The API's parameters for `query` (`is_open`, `created_by=me`, `community`: see the API). */
export function inboxApiParams(query: InboxQuery, size = INBOX_PAGE_SIZE): Record<string, string> {
  return {
    expand: '1',
    sort: query.sort,
    page: String(query.page),
    size: String(size),
    ...(query.q ? { q: query.q } : {}),
    ...(query.state === 'all' ? {} : { is_open: query.state === 'open' ? 'true' : 'false' }),
    ...(query.type ? { type: query.type } : {}),
    ...(query.community ? { community: query.community } : {}),
    ...(query.mine ? { created_by: 'me' } : {}),
  };
}

/**
 * Which list: the person's (`/api/user/requests`: what they created or may decide on) or one
 * community's (`/api/communities/{id}/requests`, its curators').
 */
export type InboxScope = { kind: 'mine' } | { kind: 'community'; id: string; slug: string };

export function inboxApiPath(scope: InboxScope): string {
  return scope.kind === 'mine'
    ? '/api/user/requests'
    : `/api/communities/${encodeURIComponent(scope.id)}/requests`;
}

/** The page that lists `scope`, for links back to it. */
export function inboxPagePath(scope: InboxScope): string {
  return scope.kind === 'mine'
    ? '/me/requests'
    : `/communities/${encodeURIComponent(scope.slug)}/requests`;
}

/**
 * What a request's page is handed by the list it was opened from, so that it can step to the
 * next open request of that list and lead back to it.
 */
export interface InboxState {
  inbox: {
    /** The list's API path and parameters (its filters and sort; page 1). */
    path: string;
    params: Record<string, string>;
    /** The ids of the page the person saw, in order. */
    ids: string[];
    /** The list's page address, for "Back to the list". */
    back: string;
  };
}
