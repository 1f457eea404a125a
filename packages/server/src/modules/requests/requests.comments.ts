import crypto from 'node:crypto';
import type { z } from 'zod';
import {
  ActionPayload,
  COMMENT_MAX,
  CommentPayload as CommentBody,
  type CommentContent,
  type SearchQueryValues,
} from '@cairn/shared';
import { AppError, permissionDenied } from '../../errors.js';
import type { BodyReader } from '../../lib/body.js';
import { parsedBody } from '../../lib/zod-errors.js';
import { sanitizeRichText } from '../../lib/html.js';
import { checkRevision } from '../../lib/revision.js';
import { monotonicNow } from '../../lib/monotonic-time.js';
import { searchParams } from '../../lib/search.js';
import type { User } from '../users/users.service.js';
import type { EventRow, RequestsRepository } from './requests.repository.js';
import type { RequestsService } from './requests.service.js';

export { COMMENT_MAX };

/** A comment as it is stored: its HTML sanitised. */
export interface CommentPayload {
  content: string;
  format: 'html';
}

/** A comment the shared schema parsed, ready to be stored. */
export function sanitizedComment(parsed: z.output<typeof CommentContent>): CommentPayload {
  return { content: sanitizeRichText(parsed.content), format: 'html' };
}

/**
 * `{payload: {content, format}}` read with the shared schemas where no route parsed it;
 * `undefined` when optional and absent.
 */
export function readCommentPayload(body: unknown, required: boolean): CommentPayload | undefined {
  const { payload } = parsedBody(required ? CommentBody : ActionPayload, body);
  return payload ? sanitizedComment(payload) : undefined;
}

/** Adds an event to a request's timeline: a comment ('C') or a logged action ('L'). */
export async function addEvent(
  repo: Pick<RequestsRepository, 'insertEvent'>,
  requestId: string,
  type: 'C' | 'L',
  payload: unknown,
  createdBy: number | null,
): Promise<EventRow> {
  const now = monotonicNow();
  const event: EventRow = {
    id: crypto.randomUUID(),
    requestId,
    type,
    payload,
    createdBy,
    revisionId: 1,
    createdAt: now,
    updatedAt: now,
  };
  await repo.insertEvent(event);
  return event;
}

/**
 * A request's comments and its timeline (invenio-requests' events): who may read, write, edit
 * and delete them.
 */
export class RequestComments {
  constructor(
    private readonly repo: RequestsRepository,
    private readonly requests: Pick<RequestsService, 'read' | 'notifications'>,
  ) {}

  /** POST …/comments: readers of the request; while `created`, only its creator. */
  async comment(
    user: User | undefined,
    id: string,
    body: BodyReader<z.output<typeof CommentBody>>,
  ): Promise<EventRow> {
    const view = await this.requests.read(user, id);
    if (view.row.status === 'created' && !view.isCreator) throw permissionDenied();
    const payload = sanitizedComment(body().payload);
    // One transaction: the comment and the e-mail about it are stored together or not at all.
    return this.repo.transaction(async () => {
      const event = await addEvent(this.repo, view.row.id, 'C', payload, user!.id);
      await this.repo.update(view.row.id, view.row.revisionId, {
        lastActivityAt: event.createdAt,
      });
      // One's own comment is no news to oneself: the inbox does not mark it unread for its author.
      await this.repo.markSeen(view.row.id, user!.id, event.createdAt);
      await this.requests.notifications?.commented(view.row, user!, payload.content);
      return event;
    });
  }

  private async commentFor(user: User | undefined, id: string, commentId: string) {
    const view = await this.requests.read(user, id);
    const event = /^[0-9a-f-]{36}$/i.test(commentId)
      ? await this.repo.getEvent(view.row.id, commentId.toLowerCase())
      : undefined;
    if (!event) throw new AppError('PID_DOES_NOT_EXIST');
    return { view, event };
  }

  async readComment(user: User | undefined, id: string, commentId: string): Promise<EventRow> {
    return (await this.commentFor(user, id, commentId)).event;
  }

  /** Only the author edits a comment; log events are not comments. */
  private assertAuthor(user: User | undefined, event: EventRow): void {
    if (event.type !== 'C' || !user || (event.createdBy !== user.id && !user.isAdmin))
      throw permissionDenied();
  }

  async updateComment(
    user: User | undefined,
    id: string,
    commentId: string,
    body: BodyReader<z.output<typeof CommentBody>>,
    ifMatch?: string,
  ): Promise<EventRow> {
    const { event } = await this.commentFor(user, id, commentId);
    this.assertAuthor(user, event);
    checkRevision(ifMatch, event.revisionId);
    const payload = sanitizedComment(body().payload);
    const updatedAt = monotonicNow();
    if (!(await this.repo.updateEvent(event.id, event.revisionId, { payload, updatedAt })))
      throw new AppError('CONFLICT');
    return { ...event, payload, updatedAt, revisionId: event.revisionId + 1 };
  }

  /** DELETE …/comments/{id}: the comment becomes a `comment_deleted` log event in the timeline. */
  async deleteComment(
    user: User | undefined,
    id: string,
    commentId: string,
    ifMatch?: string,
  ): Promise<void> {
    const { event } = await this.commentFor(user, id, commentId);
    this.assertAuthor(user, event);
    checkRevision(ifMatch, event.revisionId);
    const payload = { event: 'comment_deleted', content: 'comment was deleted', format: 'html' };
    if (
      !(await this.repo.updateEvent(event.id, event.revisionId, {
        type: 'L',
        payload,
        updatedAt: monotonicNow(),
      }))
    )
      throw new AppError('CONFLICT');
  }

  async timeline(user: User | undefined, id: string, query: SearchQueryValues) {
    const view = await this.requests.read(user, id);
    const params = searchParams(query, { defaultSort: () => 'oldest', filters: [] });
    const { rows, total } = await this.repo.events(
      view.row.id,
      (params.page - 1) * params.size,
      params.size,
    );
    return { view, params, rows, total };
  }
}
