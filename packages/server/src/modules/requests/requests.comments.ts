import crypto from 'node:crypto';
import type { ErrorItem, SearchQueryValues } from '@cairn/shared';
import { AppError, permissionDenied, validationFailed } from '../../errors.js';
import { sanitizeRichText } from '../../lib/html.js';
import { checkRevision } from '../../lib/revision.js';
import { monotonicNow } from '../../lib/monotonic-time.js';
import { searchParams } from '../../lib/search.js';
import type { User } from '../users/users.service.js';
import type { EventRow, RequestsRepository } from './requests.repository.js';
import type { RequestsService } from './requests.service.js';

export const COMMENT_MAX = 100_000;

export interface CommentPayload {
  content: string;
  format: 'html';
}

/** `{payload: {content, format}}` as the comment schema loads it; `undefined` when optional and absent. */
export function readCommentPayload(body: unknown, required: boolean): CommentPayload | undefined {
  const payload = (body as { payload?: unknown } | null | undefined)?.payload;
  const errors: ErrorItem[] = [];
  if (payload === undefined || payload === null) {
    if (!required) return undefined;
    throw validationFailed([{ field: 'payload', messages: ['Missing data for required field.'] }]);
  }
  if (typeof payload !== 'object' || Array.isArray(payload))
    throw validationFailed([{ field: 'payload', messages: ['Invalid input type.'] }]);
  const { content, format } = payload as { content?: unknown; format?: unknown };
  if (content === undefined || content === null)
    errors.push({ field: 'payload.content', messages: ['Missing data for required field.'] });
  else if (typeof content !== 'string')
    errors.push({ field: 'payload.content', messages: ['Not a valid string.'] });
  else if (content.trim().length === 0)
    errors.push({ field: 'payload.content', messages: ['Shorter than minimum length 1.'] });
  else if (content.length > COMMENT_MAX)
    errors.push({
      field: 'payload.content',
      messages: [`Longer than maximum length ${COMMENT_MAX}.`],
    });
  if (format !== undefined && format !== 'html')
    errors.push({ field: 'payload.format', messages: ['Must be one of: html.'] });
  if (errors.length > 0) throw validationFailed(errors);
  return { content: sanitizeRichText(content as string), format: 'html' };
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
    private readonly requests: Pick<RequestsService, 'read'>,
  ) {}

  /** POST …/comments: readers of the request; while `created`, only its creator. */
  async comment(user: User | undefined, id: string, body: unknown): Promise<EventRow> {
    const view = await this.requests.read(user, id);
    if (view.row.status === 'created' && !view.isCreator) throw permissionDenied();
    const payload = readCommentPayload(body, true)!;
    const event = await addEvent(this.repo, view.row.id, 'C', payload, user!.id);
    await this.repo.update(view.row.id, view.row.revisionId, { lastActivityAt: event.createdAt });
    return event;
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
    body: unknown,
    ifMatch?: string,
  ): Promise<EventRow> {
    const { event } = await this.commentFor(user, id, commentId);
    this.assertAuthor(user, event);
    checkRevision(ifMatch, event.revisionId);
    const payload = readCommentPayload(body, true)!;
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
