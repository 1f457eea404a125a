import type { CommunityHitsSchema, CommunityJsonSchema } from '@cairn/shared';
import type { z } from 'zod';
import { searchLinks } from '../../lib/search.js';
import type { Community, CommunityHits, CommunityPermissions } from './communities.service.js';
import { COMMUNITY_TYPES } from './communities.validation.js';

/** A community as the API answers it: the contract the web app parses. */
export type CommunityJson = z.input<typeof CommunityJsonSchema>;

export interface CommunityPresentOptions {
  siteUrl: string;
  /** The vnd (UI) form adds `ui` with the caller's permissions and role. */
  ui: boolean;
  locale: string;
}

/**
 * The links of the routes Cairn answers. InvenioRDM also lists a settings page, which Cairn does
 * not have: a link there would only lead to a 404.
 */
export function communityLinks(siteUrl: string, id: string, slug: string): Record<string, string> {
  const api = `${siteUrl}/api/communities/${id}`;
  return {
    self: api,
    self_html: `${siteUrl}/communities/${slug}`,
    logo: `${api}/logo`,
    rename: `${api}/rename`,
    members: `${api}/members`,
    public_members: `${api}/members/public`,
    invitations: `${api}/invitations`,
    membership_requests: `${api}/membership-requests`,
    requests: `${api}/requests`,
    records: `${api}/records`,
  };
}

/** Community JSON as InvenioRDM answers it; with `ui`, the picker's permission flags too. */
export function presentCommunity(
  community: Community,
  permissions: CommunityPermissions | undefined,
  o: CommunityPresentOptions,
): CommunityJson {
  const { row, data } = community;
  const metadata = { ...data.metadata };
  const typeId = (metadata.type as { id?: string } | undefined)?.id;
  if (typeId) metadata.type = { id: typeId, title: { en: COMMUNITY_TYPES[typeId]?.en ?? typeId } };
  const body: CommunityJson = {
    id: row.id,
    slug: row.slug,
    created: row.createdAt,
    updated: row.updatedAt,
    revision_id: row.revisionId,
    metadata,
    // record_policy: InvenioRDM's legacy name for record_submission_policy, still read by clients.
    access: { ...data.access, record_policy: data.access.record_submission_policy },
    custom_fields: data.custom_fields,
    children: data.children,
    deletion_status: { is_deleted: row.deletedAt !== null, status: row.deletedAt ? 'D' : 'P' },
    theme: data.theme ?? { enabled: false },
    upload_form: data.upload_form ?? { enabled: false },
    links: communityLinks(o.siteUrl, row.id, row.slug),
  };
  if (o.ui && permissions) {
    const typeTitle = typeId ? COMMUNITY_TYPES[typeId] : undefined;
    body.ui = {
      permissions: {
        can_include_directly: permissions.can_include_directly,
        can_submit_record: permissions.can_submit_record,
        can_update: permissions.can_update,
      },
      ...(typeTitle ? { type: { title_l10n: typeTitle[o.locale] ?? typeTitle.en } } : {}),
      theme: data.theme ?? { enabled: false },
      has_logo: row.logoChecksum !== null,
      // The role badge of the community picker; absent for non-members.
      ...(permissions.role ? { membership_role: permissions.role } : {}),
    };
  }
  return body;
}

/**
 * A community as it is expanded inside a record (receiver of a review, default community): the few
 * keys the editor reads, or a ghost once the community is deleted (InvenioRDM's `is_ghost`).
 */
export function presentCommunityStub(
  community: Community | undefined,
  id: string,
  siteUrl: string,
  permissions?: CommunityPermissions,
): CommunityJson {
  if (!community || community.row.deletedAt) {
    return {
      id,
      is_ghost: true,
      metadata: { title: 'Deleted community', description: 'The community was deleted.' },
    };
  }
  const { row, data } = community;
  const m = data.metadata as { title?: string; description?: string; type?: { id: string } };
  return {
    id: row.id,
    slug: row.slug,
    links: {
      logo: `${siteUrl}/api/communities/${row.id}/logo`,
      self_html: `${siteUrl}/communities/${row.slug}`,
    },
    metadata: {
      title: m.title,
      ...(m.description ? { description: m.description } : {}),
      ...(m.type ? { type: m.type } : {}),
    },
    access: { visibility: data.access.visibility, review_policy: data.access.review_policy },
    theme: data.theme ?? { enabled: false },
    ...(permissions
      ? {
          ui: {
            permissions: {
              can_include_directly: permissions.can_include_directly,
              can_submit_record: permissions.can_submit_record,
            },
            // The deposit page's community header shows it as a badge.
            ...(permissions.role ? { membership_role: permissions.role } : {}),
          },
        }
      : {}),
  };
}

/**
 * A community search in InvenioRDM's envelope, with the type and visibility facets; `self` is
 * the search's own address.
 */
export function presentCommunityHits(
  result: CommunityHits,
  o: CommunityPresentOptions,
  self: string,
): z.input<typeof CommunityHitsSchema> {
  const bucket =
    (selected: string[] | undefined, label: (k: string) => string) =>
    (b: { key: string; count: number }) => ({
      key: b.key,
      doc_count: b.count,
      label: label(b.key),
      is_selected: selected?.includes(b.key) ?? false,
      inner: { buckets: [] },
    });
  const capital = (k: string) => k.charAt(0).toUpperCase() + k.slice(1);
  return {
    hits: {
      hits: result.communities.map((c) => presentCommunity(c, c.permissions, o)),
      total: result.total,
    },
    aggregations: {
      type: {
        label: 'Type',
        buckets: result.facets.type.map(bucket(result.params.filters.type, capital)),
      },
      visibility: {
        label: 'Visibility',
        buckets: result.facets.visibility.map(bucket(result.params.filters.visibility, capital)),
      },
    },
    sortBy: result.params.sort,
    page: result.params.page,
    links: searchLinks(self, result.params, result.total),
  };
}
