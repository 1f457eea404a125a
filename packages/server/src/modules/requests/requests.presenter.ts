import type { RequestJsonSchema, TimelineEventSchema } from '@cairn/shared';
import type { z } from 'zod';
import type { User } from '../users/users.service.js';
import type { EventRow, RequestRow } from './requests.repository.js';
import { RequestsService, type RequestView } from './requests.service.js';

const CLOSED = new Set(['accepted', 'declined', 'cancelled', 'expired']);

/** The page of a request in the web app, where a depositor and curators talk. */
export function requestHtmlUrl(siteUrl: string, id: string): string {
  return `${siteUrl}/me/requests/${id}`;
}

/**
 * Who sends a request, who receives it and what it is about, as InvenioRDM's entity references: a
 * community sends an invitation (whoever of its managers wrote it) to a person, about itself; a
 * request to join goes from the person to the community, about the community; the others are
 * about a record.
 */
function parties(row: RequestRow) {
  if (row.receiverCommunityId === null)
    return {
      created_by:
        row.createdBy === null
          ? { email: row.creatorEmail ?? '' }
          : { user: String(row.createdBy) },
      receiver: { user: String(row.receiverUserId) },
      topic: row.topicRecordId ? { record: row.topicRecordId } : null,
    };
  if (row.type === 'community-invitation')
    return {
      created_by: { community: row.receiverCommunityId },
      receiver: { user: String(row.receiverUserId) },
      topic: { community: row.receiverCommunityId },
    };
  return {
    created_by: { user: String(row.createdBy) },
    receiver: { community: row.receiverCommunityId },
    topic:
      row.type === 'community-membership-request'
        ? { community: row.receiverCommunityId }
        : row.topicRecordId
          ? { record: row.topicRecordId }
          : null,
  };
}

/**
 * Request JSON in InvenioRDM's shape; `links.actions` holds only what the caller may do now.
 * Cairn has no focused timeline and no locking of a conversation, so it lists no links for them.
 */
export function presentRequest(
  view: RequestView,
  siteUrl: string,
): z.input<typeof RequestJsonSchema> {
  const { row } = view;
  const api = `${siteUrl}/api/requests/${row.id}`;
  return {
    id: row.id,
    number: String(row.number),
    title: row.title,
    type: row.type,
    status: row.status,
    is_open: row.status === 'submitted',
    is_closed: CLOSED.has(row.status),
    is_expired: row.status === 'expired',
    expires_at: row.expiresAt,
    ...parties(row),
    reviewers: [],
    last_reply: null,
    last_activity_at: row.lastActivityAt,
    revision_id: row.revisionId,
    created: row.createdAt,
    updated: row.updatedAt,
    links: {
      self: api,
      self_html: requestHtmlUrl(siteUrl, row.id),
      comments: `${api}/comments`,
      timeline: `${api}/timeline`,
      actions: Object.fromEntries(view.actions.map((a) => [a, `${api}/actions/${a}`])),
    },
  };
}

/** The name a person is shown by: theirs, else the first part of their address. */
export function displayName(user: Pick<User, 'name' | 'email'>): string {
  return user.name || user.email.split('@')[0]!;
}

/**
 * A person as InvenioRDM expands `created_by` (`profile.full_name`); never the e-mail address,
 * which the other party of a request has no need to see. A deleted account is a ghost.
 */
export function presentUserStub(id: number, user: User | undefined): Record<string, unknown> {
  if (!user) return { id: String(id), is_ghost: true, profile: { full_name: 'Deleted user' } };
  return {
    id: String(id),
    username: null,
    profile: { full_name: displayName(user) },
  };
}

/** A comment or log event, with what the caller may do to it. */
export function presentEvent(
  event: EventRow,
  user: User | undefined,
  siteUrl: string,
): z.input<typeof TimelineEventSchema> {
  const api = `${siteUrl}/api/requests/${event.requestId}/comments/${event.id}`;
  const mine =
    event.type === 'C' && user !== undefined && (event.createdBy === user.id || user.isAdmin);
  return {
    id: event.id,
    type: event.type,
    payload: RequestsService.payloadOf(event),
    created_by: { user: event.createdBy === null ? 'system' : String(event.createdBy) },
    created: event.createdAt,
    updated: event.updatedAt,
    revision_id: event.revisionId,
    parent_id: null,
    children: [],
    children_count: 0,
    permissions: {
      can_update_comment: mine,
      can_delete_comment: mine,
      // Comments are not threaded here: there is no reply route to offer.
      can_reply_comment: false,
    },
    // Comments are not threaded here (no replies), and one is read on its request's page.
    links: { self: api, self_html: requestHtmlUrl(siteUrl, event.requestId) },
  };
}
