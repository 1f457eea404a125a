import type { z } from 'zod';
import { REQUEST_TYPE_IDS, type RequestActionBody, type REQUEST_SORTS } from '@cairn/shared';
import { isUuid, type SearchQueryValues } from '@cairn/shared';
import crypto from 'node:crypto';
import type { BodyReader } from '../../lib/body.js';
import { AppError, permissionDenied } from '../../errors.js';
import { readJson } from '../../database/schema.js';
import { monotonicNow } from '../../lib/monotonic-time.js';
import { searchParams, type SearchParams } from '../../lib/search.js';
import type { User } from '../users/users.service.js';
import { CURATOR_ROLES, type CommunitiesService } from '../communities/communities.service.js';
import { MANAGER_ROLES } from '../communities/communities.roles.js';
import type { RequestNotifications } from '../mail/request-notifications.js';
import type { EventRow, Involving, RequestRow, RequestsRepository } from './requests.repository.js';
import {
  RequestComments,
  addEvent,
  sanitizedComment,
  type CommentPayload,
} from './requests.comments.js';

export {
  COMMENT_MAX,
  readCommentPayload,
  sanitizedComment,
  type CommentPayload,
} from './requests.comments.js';

export const REQUEST_TYPES = REQUEST_TYPE_IDS;
/** Requests about a person's membership of a community rather than about a record. */
export const MEMBER_REQUEST_TYPES: readonly RequestType[] = [
  'community-invitation',
  'community-membership-request',
];
export type RequestType = (typeof REQUEST_TYPES)[number];
export const REQUEST_ACTIONS = ['submit', 'accept', 'decline', 'cancel', 'expire'] as const;
export type RequestAction = (typeof REQUEST_ACTIONS)[number];

const OPEN = ['submitted'];
const CLOSED = ['accepted', 'declined', 'cancelled', 'expired'];
/** The state machine of invenio-requests: which status each action leaves and reaches. */
const TRANSITIONS: Record<RequestAction, { from: string; to: string }> = {
  submit: { from: 'created', to: 'submitted' },
  accept: { from: 'submitted', to: 'accepted' },
  decline: { from: 'submitted', to: 'declined' },
  cancel: { from: 'submitted', to: 'cancelled' },
  expire: { from: 'submitted', to: 'expired' },
};
export { REQUEST_SORTS } from '@cairn/shared';

/** Who acts: a user, or the system (automatic acceptance, expiry). */
export type Actor = User | 'system';

/**
 * What a request type does when an action runs: a community submission publishes its draft on
 * accept. Throwing refuses the action and leaves the request as it was.
 */
/** What an action's body says beyond its comment. */
export interface ActionOptions {
  /**
   * Accepting an access request: the days the guest's link or the person's grant lasts (0: no
   * end), InvenioRDM's `secret_link_expiration`.
   */
  expirationDays?: number;
}

export interface RequestTypeHandler {
  onAction?(
    action: RequestAction,
    request: RequestRow,
    actor: Actor,
    options?: ActionOptions,
  ): Promise<void>;
  /**
   * Submits a request of this type for a user allowed to, when the type has rules of its own
   * (a review's draft must be publishable and the community open to the submitter).
   */
  submit?(request: RequestRow, user: User, payload?: CommentPayload): Promise<RequestView>;
  /**
   * Runs `fn` holding the lock of what the request's actions change (its record's parent), so
   * that an action, its effect and the request's new status are one step: the lock is taken
   * before the request's own (ARCHITECTURE §7).
   */
  serialize?<T>(request: RequestRow, fn: () => Promise<T>): Promise<T>;
  /**
   * Which of `rows` (of this type, addressed to a person) `user` decides beside their receiver:
   * an access request's record's `manage` grantees, who share it as co-owners.
   */
  decidedAlsoBy?(user: User, rows: RequestRow[]): Promise<Set<string>>;
}

/** What the caller may do with one request; the presenter turns it into links.actions. */
export interface RequestView {
  row: RequestRow;
  actions: RequestAction[];
  isCreator: boolean;
  isReceiver: boolean;
}

/**
 * Requests between a user and a community (invenio-requests): the state machine, who may run
 * which action, comments and the timeline. Request types plug their effects in as handlers.
 */
export class RequestsService {
  private readonly handlers = new Map<string, RequestTypeHandler>();
  /** Comments and the timeline. */
  readonly comments: RequestComments;

  constructor(
    private readonly repo: RequestsRepository,
    private readonly communities: CommunitiesService,
    private readonly expiryDays: number,
    /** E-mail about what happens to requests, queued in each action's transaction. */
    readonly notifications?: RequestNotifications,
  ) {
    this.comments = new RequestComments(repo, this);
  }

  registerHandler(type: RequestType, handler: RequestTypeHandler): void {
    this.handlers.set(type, handler);
  }

  /**
   * Whether the user decides the request: the invited person an invitation (no one else may
   * accept it for them); the receiving community's managers and owners a request to join it; its
   * curators, managers and owners the others; administrators all but invitations. `role` is the
   * user's role in the receiving community; `delegated`, whether the type's handler names the
   * user a decider beside the person receiving it (`decidedAlsoBy`).
   */
  private decides(
    user: User | undefined,
    row: RequestRow,
    role: string | undefined,
    delegated: boolean,
  ): boolean {
    if (!user) return false;
    if (row.receiverUserId !== null) return row.receiverUserId === user.id || delegated;
    if (user.isAdmin) return true;
    if (role === undefined) return false;
    return row.type === 'community-membership-request'
      ? MANAGER_ROLES.has(role)
      : CURATOR_ROLES.has(role);
  }

  /**
   * Whether the user speaks for the request's sender: its creator; for an invitation, which the
   * community sends, also the community's other managers and owners and administrators, so that
   * any of them may withdraw it. `role` as for `decides`.
   */
  private sends(user: User | undefined, row: RequestRow, role: string | undefined): boolean {
    if (!user) return false;
    if (row.createdBy === user.id) return true;
    if (row.type !== 'community-invitation') return false;
    if (user.isAdmin) return true;
    return role !== undefined && MANAGER_ROLES.has(role);
  }

  /** The actions the caller may run now: possible in this status and allowed for them. */
  async view(user: User | undefined, row: RequestRow): Promise<RequestView> {
    const role =
      user && row.receiverCommunityId !== null
        ? await this.communities.roleOf(row.receiverCommunityId, user.id)
        : undefined;
    const delegated = await this.delegatedOf(user, [row]);
    return this.viewAs(user, row, role, delegated.has(row.id));
  }

  /**
   * The requests of `rows` addressed to a person that `user` decides beside them, asked of each
   * type's handler once for all its rows (a page's at once). Their receiver needs no asking.
   */
  private async delegatedOf(user: User | undefined, rows: RequestRow[]): Promise<Set<string>> {
    const byType = new Map<string, RequestRow[]>();
    for (const row of rows)
      if (user && row.receiverUserId !== null && row.receiverUserId !== user.id)
        byType.set(row.type, [...(byType.get(row.type) ?? []), row]);
    const found = await Promise.all(
      [...byType].map(([type, some]) => {
        const handler = this.handlers.get(type);
        return handler?.decidedAlsoBy
          ? handler.decidedAlsoBy(user!, some)
          : Promise.resolve(new Set<string>());
      }),
    );
    return new Set(found.flatMap((ids) => [...ids]));
  }

  /**
   * `view`, given the user's role in the receiving community (a page's are read at once) and
   * whether a handler made them a decider (`delegatedOf`).
   */
  private viewAs(
    user: User | undefined,
    row: RequestRow,
    role: string | undefined,
    delegated = false,
  ): RequestView {
    const isCreator = this.sends(user, row, role);
    const isReceiver = this.decides(user, row, role, delegated);
    const actions: RequestAction[] = [];
    if (row.status === 'created' && (isCreator || user?.isAdmin)) actions.push('submit');
    if (row.status === 'submitted') {
      if (isReceiver) actions.push('accept', 'decline');
      if (isCreator || user?.isAdmin) actions.push('cancel');
    }
    return { row, actions, isCreator, isReceiver };
  }

  private async load(id: string): Promise<RequestRow> {
    // Request routes are typed <uuid:id> upstream: anything else is simply not found.
    const row = /^[0-9a-f-]{36}$/i.test(id) ? await this.repo.get(id.toLowerCase()) : undefined;
    if (!row) throw new AppError('PID_DOES_NOT_EXIST');
    return row;
  }

  /**
   * A request the caller may see: its creator, the receiving curators once it is submitted,
   * administrators (invenio-requests' can_read: a `created` request is its creator's alone).
   */
  async read(user: User | undefined, id: string): Promise<RequestView> {
    const row = await this.load(id);
    const view = await this.view(user, row);
    const allowed =
      row.status === 'created'
        ? view.isCreator || user?.isAdmin === true
        : view.isCreator || view.isReceiver;
    if (!allowed) throw permissionDenied();
    return view;
  }

  async get(id: string): Promise<RequestRow | undefined> {
    return this.repo.get(id);
  }

  /** A request locked until the enclosing transaction ends (see the repository). */
  async getForUpdate(id: string): Promise<RequestRow | undefined> {
    return this.repo.getForUpdate(id);
  }

  /** A new request in status `created`, made by the records module (reviews, inclusions). */
  async create(input: {
    type: RequestType;
    /** null: a guest, named by `creatorEmail`. */
    createdBy: number | null;
    creatorEmail?: string;
    /** null: a request to a person (an access request to a record's owner). */
    communityId: string | null;
    /** An invitation's invited person; an access request's record owner. */
    receiverUserId?: number;
    topicRecordId: string | null;
    title: string;
  }): Promise<RequestRow> {
    const now = monotonicNow();
    return this.repo.insert({
      id: crypto.randomUUID(),
      type: input.type,
      status: 'created',
      title: input.title,
      createdBy: input.createdBy,
      creatorEmail: input.creatorEmail ?? null,
      receiverCommunityId: input.communityId,
      receiverUserId: input.receiverUserId ?? null,
      topicRecordId: input.topicRecordId,
      expiresAt: null,
      revisionId: 1,
      createdAt: now,
      updatedAt: now,
      lastActivityAt: now,
    });
  }

  /** The open (submitted) requests of `type` about a record, to one community if given. */
  async openAbout(
    type: RequestType,
    topicRecordId: string,
    communityId?: string,
  ): Promise<RequestRow[]> {
    const { rows } = await this.repo.search({
      ...(communityId ? { receiverCommunityIds: [communityId] } : {}),
      topicRecordId,
      statuses: OPEN,
      types: [type],
      q: '',
      sort: 'newest',
      offset: 0,
      limit: 100,
    });
    return rows;
  }

  /** Changes the receiver of a request still in `created` (a review's community swapped). */
  async changeReceiver(row: RequestRow, communityId: string): Promise<RequestRow> {
    await this.write(row, { receiverCommunityId: communityId, updatedAt: monotonicNow() });
    return (await this.repo.get(row.id))!;
  }

  async setTitle(row: RequestRow, title: string): Promise<void> {
    if (row.title !== title) await this.write(row, { title, updatedAt: monotonicNow() });
  }

  /** Removes a request never submitted (InvenioRDM's delete of a `created` request). */
  async discard(row: RequestRow): Promise<void> {
    if (row.status !== 'created') throw new Error(`request ${row.id} is ${row.status}`);
    await this.repo.delete(row.id);
  }

  private async write(row: RequestRow, set: Parameters<RequestsRepository['update']>[2]) {
    if (!(await this.repo.update(row.id, row.revisionId, set))) throw new AppError('CONFLICT');
  }

  /**
   * `fn` in one transaction holding the request's topic (see `RequestTypeHandler.serialize`) and
   * then the request itself, read again as it is now.
   */
  private serialized<T>(row: RequestRow, fn: (current: RequestRow) => Promise<T>): Promise<T> {
    const handler = this.handlers.get(row.type);
    const locked = async () => {
      const current = await this.repo.getForUpdate(row.id);
      // Discarded meanwhile (a review's request that was never submitted).
      if (!current) throw new AppError('PID_DOES_NOT_EXIST');
      return fn(current);
    };
    return this.repo.transaction(() =>
      handler?.serialize ? handler.serialize(row, locked) : locked(),
    );
  }

  /**
   * POST …/actions/{action}: the caller must be allowed (403), the request in the right status
   * (400); the type's handler runs first, so a failing publish leaves the request open. Actions
   * on one request take turns: of parallel accepts one wins, the others find it accepted (400).
   */
  async act(
    user: User | undefined,
    id: string,
    action: string,
    body: BodyReader<z.output<typeof RequestActionBody>>,
  ): Promise<RequestView> {
    return this.serialized(await this.load(id), (row) => this.actOn(user, row, action, body));
  }

  private async actOn(
    user: User | undefined,
    row: RequestRow,
    action: string,
    body: BodyReader<z.output<typeof RequestActionBody>>,
  ): Promise<RequestView> {
    if (!(REQUEST_ACTIONS as readonly string[]).includes(action)) {
      throw new AppError('VALIDATION_FAILED', `Unknown action '${action}'.`);
    }
    const view = await this.view(user, row);
    if (!view.isCreator && !view.isReceiver) throw permissionDenied();
    const name = action as RequestAction;
    const mayEver =
      name === 'submit' || name === 'cancel'
        ? view.isCreator || user?.isAdmin === true
        : name === 'expire'
          ? false
          : view.isReceiver;
    if (!mayEver) throw permissionDenied();
    const comment = body().payload;
    const payload = comment?.content
      ? sanitizedComment({ content: comment.content, format: 'html' })
      : undefined;
    const expirationDays = comment?.secret_link_expiration ?? undefined;
    if (!view.actions.includes(name)) {
      throw new AppError('VALIDATION_FAILED', `Cannot ${name} a request that is ${row.status}.`);
    }
    const handler = this.handlers.get(row.type);
    if (name === 'submit' && handler?.submit) return handler.submit(row, user!, payload);
    return this.run(row, name, user!, payload, { expirationDays });
  }

  /**
   * Runs an action the caller was checked for (or the system runs); returns the new view.
   * `notify: false` queues no e-mail: a request included at once (submitted and accepted in one
   * step by someone allowed to include directly) waits for no one, so no one is written to.
   */
  async run(
    request: RequestRow,
    action: RequestAction,
    actor: Actor,
    payload?: CommentPayload,
    { notify = true, ...options }: { notify?: boolean } & ActionOptions = {},
  ): Promise<RequestView> {
    return this.serialized(request, (row) =>
      this.runOn(row, action, actor, payload, notify, options),
    );
  }

  private async runOn(
    row: RequestRow,
    action: RequestAction,
    actor: Actor,
    payload: CommentPayload | undefined,
    notify: boolean,
    options: ActionOptions,
  ): Promise<RequestView> {
    const transition = TRANSITIONS[action];
    if (row.status !== transition.from) {
      throw new AppError('VALIDATION_FAILED', `Cannot ${action} a request that is ${row.status}.`);
    }
    await this.handlers.get(row.type)?.onAction?.(action, row, actor, options);
    const now = monotonicNow();
    const expiresAt =
      action === 'submit' && this.expiryDays > 0
        ? new Date(Date.now() + this.expiryDays * 86_400_000).toISOString()
        : row.expiresAt;
    const actorId = actor === 'system' ? null : actor.id;
    await this.repo.transaction(async (trx) => {
      if (
        !(await trx.update(row.id, row.revisionId, {
          status: transition.to,
          updatedAt: now,
          lastActivityAt: now,
          expiresAt,
        }))
      )
        throw new AppError('CONFLICT');
      // Submitting posts the submitter's words as the first comment; other actions log first.
      if (action !== 'submit') await addEvent(trx, row.id, 'L', { event: transition.to }, actorId);
      if (payload) await addEvent(trx, row.id, 'C', payload, actorId);
      // Nor is one's own decision news to oneself (the inbox's unread marks).
      if (actorId !== null) await trx.markSeen(row.id, actorId, now);
      if (notify)
        await this.notifications?.changed(
          { ...row, status: transition.to },
          action,
          actor,
          payload?.content,
        );
    });
    const updated = (await this.repo.get(row.id))!;
    return actor === 'system'
      ? { row: updated, actions: [], isCreator: false, isReceiver: false }
      : this.view(actor, updated);
  }

  /** A system comment, e.g. the note of an automatic acceptance. */
  async systemComment(requestId: string, content: string): Promise<void> {
    await addEvent(this.repo, requestId, 'C', { content, format: 'html' }, null);
  }

  /** Expires submitted requests past their date (the sweep); returns how many. */
  async expireDue(): Promise<number> {
    const due = await this.repo.due(new Date().toISOString(), 200);
    let n = 0;
    for (const row of due) {
      try {
        await this.run(row, 'expire', 'system');
        n++;
      } catch (error) {
        // A request changed under us (accepted at the last moment) is simply not expired.
        if (!(error instanceof AppError)) throw error;
      }
    }
    return n;
  }

  // Search

  /**
   * Requests the caller is part of (created, or received by a community it curates); all for
   * administrators; optionally only those of one community (its curators only) or about one record.
   */
  async search(
    user: User | undefined,
    query: SearchQueryValues,
    scope: { mine?: boolean; communityId?: string; topicRecordId?: string } = {},
  ): Promise<{ params: SearchParams; views: RequestView[]; total: number }> {
    // Searching requests is for signed-in users (invenio-requests' can_search).
    if (!user) throw permissionDenied();
    const params = searchParams(query, {
      defaultSort: (hasQuery) => (hasQuery ? 'bestmatch' : 'newest'),
      filters: ['is_open', 'type', 'status', 'created_by', 'community'],
    });
    const isOpen = params.filters.is_open?.[0];
    const statuses = isOpen === 'true' ? OPEN : isOpen === 'false' ? CLOSED : params.filters.status;
    const createdBy = params.filters.created_by;
    const communities = params.filters.community;
    // A value of neither filter that can match (`created_by=them`, a community that is no uuid)
    // finds nothing, as an unknown facet value does.
    const matchesNothing =
      (createdBy !== undefined && !createdBy.includes('me')) ||
      (communities !== undefined && communities.every((c) => !isUuid(c)));
    if (matchesNothing) return { params, views: [], total: 0 };
    const { rows, total } = await this.repo.search({
      involving: user.isAdmin && !scope.mine ? undefined : this.involving(user),
      receiverCommunityIds: scope.communityId
        ? [scope.communityId]
        : communities?.filter((c) => isUuid(c)).map((c) => c.toLowerCase()),
      ...(createdBy ? { createdBy: user.id } : {}),
      topicRecordId: scope.topicRecordId,
      statuses,
      types: params.filters.type,
      q: params.q,
      sort: params.sort as (typeof REQUEST_SORTS)[number],
      offset: (params.page - 1) * params.size,
      limit: params.size,
    });
    // The caller's roles in the page's communities in one statement, not one per request.
    const [roles, delegated] = await Promise.all([
      user.isAdmin
        ? undefined
        : this.communities.rolesOf(
            user.id,
            rows.flatMap((r) => r.receiverCommunityId ?? []),
          ),
      this.delegatedOf(user, rows),
    ]);
    return {
      params,
      views: rows.map((r) =>
        this.viewAs(
          user,
          r,
          r.receiverCommunityId ? roles?.get(r.receiverCommunityId) : undefined,
          delegated.has(r.id),
        ),
      ),
      total,
    };
  }

  /** The person opened the request (which it must be allowed to read): it has seen it as it is. */
  async markSeen(user: User | undefined, id: string): Promise<void> {
    const { row } = await this.read(user, id);
    await this.repo.markSeen(row.id, user!.id, row.lastActivityAt);
  }

  /**
   * Which of `rows` had activity since the user last opened them (or were never opened): the
   * inbox's unread marks. What had no activity since the database began keeping marks counts as
   * seen, so that an upgrade does not mark every earlier request new to everyone.
   */
  async unreadOf(user: User, rows: RequestRow[]): Promise<Set<string>> {
    const [seen, since] = await Promise.all([
      this.repo.seenOf(
        user.id,
        rows.map((r) => r.id),
      ),
      this.repo.readsSince(),
    ]);
    return new Set(
      rows.filter((r) => (seen.get(r.id) ?? since) < r.lastActivityAt).map((r) => r.id),
    );
  }

  /** The comments of each of `rows`, for search hits. */
  async commentCounts(rows: RequestRow[]): Promise<Map<string, number>> {
    return this.repo.commentCounts(rows.map((r) => r.id));
  }

  /**
   * How many open requests wait for the user's decision as curator, manager or owner of the
   * receiving community (administrators count as members only: the site's every open request
   * is not their inbox).
   */
  async countAwaiting(user: User | undefined): Promise<number> {
    if (!user) throw permissionDenied();
    return this.repo.countAwaiting(this.involving(user));
  }

  private involving(user: User): Involving {
    return {
      userId: user.id,
      curatorRoles: [...CURATOR_ROLES],
      managerRoles: [...MANAGER_ROLES],
    };
  }

  /** The payload of an event as stored. */
  static payloadOf(event: EventRow): Record<string, unknown> {
    return readJson<Record<string, unknown>>(event.payload);
  }
}
