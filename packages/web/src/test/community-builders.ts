import type { CommunityJson } from '../features/deposit/community/community-json';

const SITE = 'http://127.0.0.1:5000';

/**
 * A community as GET /api/communities answers with the vnd Accept header (the server's
 * presentCommunity): links, access, theme, upload_form and the caller's `ui.permissions`.
 */
export function buildCommunity(
  overrides: Partial<CommunityJson> & { id: string; title?: string },
): CommunityJson {
  const { id, title = `Community ${id}`, ...rest } = overrides;
  const slug = rest.slug ?? `community-${id}`;
  return {
    id,
    slug,
    created: '2024-01-01T00:00:00.000Z',
    updated: '2024-01-01T00:00:00.000Z',
    revision_id: 1,
    metadata: { title, type: { id: 'organization', title: { en: 'Organization' } } },
    access: {
      visibility: 'public',
      members_visibility: 'public',
      member_policy: 'open',
      record_submission_policy: 'open',
      review_policy: 'closed',
      record_policy: 'open',
    },
    custom_fields: {},
    theme: { enabled: false },
    upload_form: { enabled: false },
    links: {
      self: `${SITE}/api/communities/${id}`,
      self_html: `${SITE}/communities/${slug}`,
      logo: `${SITE}/api/communities/${id}/logo`,
    },
    ui: {
      permissions: { can_include_directly: false, can_submit_record: true, can_update: false },
      theme: { enabled: false },
      has_logo: false,
    },
    ...rest,
  };
}

/** A page of community search results, as the server answers it. */
export function buildCommunitySearch(
  hits: CommunityJson[],
  total = hits.length,
  path = '/api/communities',
) {
  return {
    hits: { hits, total },
    aggregations: {},
    sortBy: 'bestmatch',
    links: { self: `${SITE}${path}?page=1&size=5&sort=bestmatch` },
  };
}
