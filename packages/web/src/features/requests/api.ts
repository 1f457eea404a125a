import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import {
  RequestJsonSchema,
  TimelineEventSchema,
  TimelineSchema,
  type RequestJson,
  type TimelineEvent,
} from '@cairn/shared';
import { errorCodeOf } from '../../api/client';
import { RecordJsonSchema, type RecordJson } from '../../api/records';
import { useApiClient } from '../../api/useApiClient';
import { inboxKeys } from './inbox-api';

export { RequestJsonSchema, TimelineEventSchema, type RequestJson, type TimelineEvent };

export const TIMELINE_PAGE_SIZE = 25;

export const requestKeys = {
  all: (id: string) => ['requests', id] as const,
  detail: (id: string) => ['requests', id, 'detail'] as const,
  timeline: (id: string, page: number) => ['requests', id, 'timeline', page] as const,
  topic: (id: string, recordId: string) => ['requests', id, 'topic', recordId] as const,
};

/**
 * Tells the server the person has seen the request as shown (the inbox's unread marks), once per
 * activity: again after a comment or decision changed `last_activity_at`. A failure only leaves
 * the request marked unread, so it is not reported.
 */
export function useMarkSeen(request: RequestJson | undefined) {
  const client = useApiClient();
  const id = request?.id;
  const activity = request?.last_activity_at;
  useEffect(() => {
    if (!id || !activity) return;
    client
      .request(`/api/requests/${encodeURIComponent(id)}/seen`, { method: 'PUT' })
      .catch(() => undefined);
  }, [client, id, activity]);
}

export function useRequest(id: string) {
  const client = useApiClient();
  return useQuery({
    queryKey: requestKeys.detail(id),
    queryFn: async () =>
      RequestJsonSchema.parse(
        await client.get(`/api/requests/${encodeURIComponent(id)}`, { query: { expand: '1' } }),
      ),
  });
}

export function useTimeline(id: string, page: number) {
  const client = useApiClient();
  return useQuery({
    queryKey: requestKeys.timeline(id, page),
    queryFn: async () =>
      TimelineSchema.parse(
        await client.get(`/api/requests/${encodeURIComponent(id)}/timeline`, {
          query: { expand: '1', page: String(page), size: String(TIMELINE_PAGE_SIZE) },
        }),
      ).hits,
    placeholderData: (previous) => previous,
  });
}

/** The record a request is about: its draft while one exists, else the published record. */
export interface RequestTopic {
  isDraft: boolean;
  record: RecordJson;
}

/**
 * The draft is what curators review (they may read it while the review is open); once accepted
 * it is published and the draft is gone (404), so the record is read instead.
 */
export function useRequestTopic(requestId: string, recordId: string | undefined) {
  const client = useApiClient();
  return useQuery({
    queryKey: requestKeys.topic(requestId, recordId ?? ''),
    queryFn: async (): Promise<RequestTopic> => {
      const path = `/api/records/${encodeURIComponent(recordId!)}`;
      try {
        return { isDraft: true, record: RecordJsonSchema.parse(await client.get(`${path}/draft`)) };
      } catch (error) {
        if (errorCodeOf(error) !== 'PID_DOES_NOT_EXIST') throw error;
      }
      return { isDraft: false, record: RecordJsonSchema.parse(await client.get(path)) };
    },
    enabled: recordId !== undefined,
    retry: false,
  });
}

/** `{payload: {content, format}}`, the body of comments and of an action's optional note. */
function commentBody(html: string) {
  return { payload: { content: html, format: 'html' } };
}

function useInvalidateRequest(id: string) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: requestKeys.all(id) });
}

export function useAddComment(request: RequestJson) {
  const client = useApiClient();
  const invalidate = useInvalidateRequest(request.id);
  return useMutation({
    mutationFn: (html: string) => client.post(request.links.comments, commentBody(html)),
    onSuccess: invalidate,
  });
}

/** Edits or deletes one's own comment; `If-Match` keeps a stale page from overwriting. */
export function useChangeComment(requestId: string) {
  const client = useApiClient();
  const invalidate = useInvalidateRequest(requestId);
  return useMutation({
    mutationFn: ({ event, html }: { event: TimelineEvent; html?: string }) =>
      html === undefined
        ? client.request(event.links.self, { method: 'DELETE', ifMatch: event.revision_id })
        : client.put(event.links.self, commentBody(html), { ifMatch: event.revision_id }),
    onSuccess: invalidate,
  });
}

/**
 * Runs accept, decline or cancel through the link the server offered, with an optional note; the
 * lists and the header's count change with it.
 */
export function useRequestAction(request: RequestJson) {
  const client = useApiClient();
  const queryClient = useQueryClient();
  const invalidateRequest = useInvalidateRequest(request.id);
  const invalidate = () =>
    Promise.all([invalidateRequest(), queryClient.invalidateQueries({ queryKey: inboxKeys.all })]);
  return useMutation({
    mutationFn: ({
      action,
      html,
      linkDays,
    }: {
      action: string;
      html: string;
      linkDays?: number;
    }) => {
      const link = request.links.actions[action];
      if (!link) throw new Error(`The request offers no ${action} action.`);
      // Accepting an access request: the days the link or grant lasts go with the comment.
      if (linkDays !== undefined)
        return client.post(link, {
          payload: {
            ...(html ? { content: html } : {}),
            format: 'html',
            secret_link_expiration: linkDays,
          },
        });
      return client.post(link, html ? commentBody(html) : {});
    },
    onSuccess: invalidate,
  });
}
