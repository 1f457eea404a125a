import {
  doiTransitionAfter,
  RecordHitsSchema,
  RecordJsonSchema,
  RequestJsonSchema,
  type DoiTransition,
  type DraftPayload,
  type RecordJson,
  type RequestJson,
} from '@cairn/shared';
import { skipToken, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { ApiClient } from '../../api/client';
import { useApiClient } from '../../api/useApiClient';
import { readStreamedDraft, useBootstrap } from '../../bootstrap';

// The editor asks for expanded references on every draft call, as InvenioRDM's does.
const EXPAND = { expand: '1' };

export const draftKeys = {
  detail: (id: string) => ['drafts', id] as const,
};

/**
 * The draft behind `/uploads/:id`: the one the page was sent with, else the API's. Never
 * refetched by itself: once the form is filled from it, the form owns the values and each save
 * keeps the server's answer itself.
 */
export function useDraft(id: string | undefined) {
  const client = useApiClient();
  return useQuery({
    queryKey: draftKeys.detail(id ?? ''),
    queryFn:
      id === undefined
        ? skipToken
        : async () =>
            (await readStreamedDraft(document, id)) ??
            RecordJsonSchema.parse(
              await client.get(`/api/records/${encodeURIComponent(id)}/draft`, { query: EXPAND }),
            ),
    staleTime: Infinity,
  });
}

/**
 * Which DOI a new version's draft may take, from the DOI of the published version it follows
 * (the newest in its versions list); undefined until known, and for a first version or an edit
 * of a published one, where every answer is allowed. The server holds publishing to the same rule.
 */
export function useDoiTransition(
  draft: RecordJson | null,
  isNewVersion: boolean,
): DoiTransition | undefined {
  const client = useApiClient();
  const link = isNewVersion ? draft?.links.versions : undefined;
  const previous = useQuery({
    queryKey: ['drafts', draft?.id ?? '', 'previous-version'] as const,
    queryFn:
      link !== undefined
        ? async () =>
            RecordHitsSchema.parse(
              await client.get(link, { query: { size: '1', sort: 'version' } }),
            ).hits.hits[0] ?? null
        : skipToken,
    staleTime: Infinity,
  });
  if (!previous.data) return undefined;
  const doi = previous.data.pids?.['doi'] as { provider?: string } | undefined;
  return doiTransitionAfter(doi ? { provider: doi.provider ?? '' } : undefined);
}

/** What the submit-for-review dialog returns: the message to the curators, HTML or empty. */
export interface ReviewComment {
  content: string;
}

export interface SubmitReviewOptions {
  /**
   * Asks for a curator's review even where the person may publish into the community directly:
   * without it the server accepts such a submission at once, as InvenioRDM's does.
   */
  requireReview?: boolean;
}

/**
 * `{payload: {content, format: 'html'}}` when there is a message, else `{}` (as InvenioRDM sends
 * it), with `require_review` when the person asked for a review they could skip.
 */
function submitReviewBody(comment: ReviewComment, options: SubmitReviewOptions) {
  const content = comment.content.trim();
  return {
    ...(content === '' ? {} : { payload: { content, format: 'html' } }),
    ...(options.requireReview ? { require_review: true } : {}),
  };
}

/** The calls of the deposit editor, each on the link the server gave the draft. */
export interface DepositApi {
  /** POST {createUrl} without a draft, else PUT {links.self} with If-Match on its revision. */
  save(payload: DraftPayload, draft: RecordJson | null): Promise<RecordJson>;
  read(draft: RecordJson): Promise<RecordJson>;
  publish(draft: RecordJson): Promise<RecordJson>;
  remove(draft: RecordJson): Promise<void>;
  /** PUT {links.review}: creates or replaces the draft's review for `communityId`. */
  putReview(draft: RecordJson, communityId: string): Promise<RequestJson>;
  /** DELETE {links.review}: removes the review (the server refuses an open one, 400). */
  deleteReview(draft: RecordJson): Promise<void>;
  /** POST {links['submit-review']}; the answer's `links.next_html` is where to go next. */
  submitReview(
    draft: RecordJson,
    comment: ReviewComment,
    options?: SubmitReviewOptions,
  ): Promise<RequestJson>;
  reservePid(draft: RecordJson, scheme: string): Promise<RecordJson>;
  discardPid(draft: RecordJson, scheme: string): Promise<RecordJson>;
  /** POST {links.versions} of a published record: the new version's draft. */
  newVersion(draft: RecordJson): Promise<RecordJson>;
}

export function createDepositApi(client: ApiClient, createUrl: string): DepositApi {
  const parse = (body: unknown) => RecordJsonSchema.parse(body);
  return {
    async save(payload, draft) {
      if (!draft) return parse(await client.post(createUrl, payload, { query: EXPAND }));
      return parse(
        await client.put(requireLink(draft, 'self'), payload, {
          query: EXPAND,
          ...(draft.revision_id === undefined ? {} : { ifMatch: draft.revision_id }),
        }),
      );
    },
    async read(draft) {
      return parse(await client.get(requireLink(draft, 'self'), { query: EXPAND }));
    },
    async publish(draft) {
      return parse(await client.post(requireLink(draft, 'publish'), undefined, { query: EXPAND }));
    },
    async remove(draft) {
      await client.request(requireLink(draft, 'self'), { method: 'DELETE' });
    },
    async putReview(draft, communityId) {
      return RequestJsonSchema.parse(
        await client.put(requireLink(draft, 'review'), {
          receiver: { community: communityId },
          type: 'community-submission',
        }),
      );
    },
    async deleteReview(draft) {
      await client.request(requireLink(draft, 'review'), { method: 'DELETE' });
    },
    async submitReview(draft, comment, options = {}) {
      return RequestJsonSchema.parse(
        await client.post(requireLink(draft, 'submit-review'), submitReviewBody(comment, options)),
      );
    },
    async reservePid(draft, scheme) {
      return parse(
        await client.post(requireLink(draft, `reserve_${scheme}`), undefined, { query: EXPAND }),
      );
    },
    async discardPid(draft, scheme) {
      return parse(
        await client.request(requireLink(draft, `reserve_${scheme}`), {
          method: 'DELETE',
          query: EXPAND,
        }),
      );
    },
    async newVersion(draft) {
      return parse(await client.post(requireLink(draft, 'versions')));
    },
  };
}

/** The deposit API of this page's client and configuration. */
export function useDepositApi(): DepositApi {
  const client = useApiClient();
  const { config } = useBootstrap();
  return useMemo(() => createDepositApi(client, config.createUrl), [client, config.createUrl]);
}

function requireLink(draft: RecordJson, name: string): string {
  const link = (draft.links as Record<string, unknown>)[name];
  if (typeof link !== 'string') throw new Error(`Draft ${draft.id} has no "${name}" link.`);
  return link;
}
