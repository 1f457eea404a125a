import { COMMENT_MAX, type ErrorItem, type SearchQueryValues } from '@cairn/shared';
import { AppError, permissionDenied, validationFailed } from '../../errors.js';
import { inTransaction } from '../../database/unit-of-work.js';
import type { Db } from '../../database/database.js';
import { isUniqueViolation } from '../../database/errors.js';
import { searchParams } from '../../lib/search.js';
import type { User } from '../users/users.service.js';
import type { CommunitiesService, Community } from '../communities/communities.service.js';
import type { CommunityRole } from '../communities/communities.roles.js';
import type { RequestAction, RequestsService, RequestView } from '../requests/requests.service.js';
import { sanitizedComment } from '../requests/requests.service.js';
import type { RequestRow } from '../requests/requests.repository.js';
import type { MembershipsRepository } from './memberships.repository.js';

export const INVITATION = 'community-invitation';
export const MEMBERSHIP_REQUEST = 'community-membership-request';
type MemberRequestType = typeof INVITATION | typeof MEMBERSHIP_REQUEST;

const ALREADY = 'A member was already added or invited.';

/** The title a community has in messages and request titles. */
function titleOf(community: Community): string {
  const title = (community.data.metadata as { title?: unknown }).title;
  return typeof title === 'string' && title ? title : community.row.slug;
}

/**
 * Joining a community other than by being added: owners and managers invite people (a
 * `community-invitation` request the invited person accepts or declines), and anyone signed in
 * asks to join a community whose member policy is open (a `community-membership-request` its
 * managers decide on, choosing the role). Each is a request, so it has a conversation, an expiry
 * and e-mail like a submission; what the membership would be is kept beside it until it is decided.
 */
export class MembershipsService {
  constructor(
    private readonly db: Db,
    private readonly repo: MembershipsRepository,
    private readonly communities: CommunitiesService,
    private readonly requests: RequestsService,
  ) {
    for (const type of [INVITATION, MEMBERSHIP_REQUEST] as const)
      requests.registerHandler(type, { onAction: (action, row) => this.onAction(action, row) });
  }

  /** What a decision does: an acceptance makes the membership; every end closes the request. */
  private async onAction(action: RequestAction, row: RequestRow): Promise<void> {
    if (action === 'submit') return;
    const pending = await this.repo.byRequest(row.id);
    if (!pending) throw new Error(`request ${row.id} has no membership it would make`);
    if (action === 'accept') {
      // Added directly meanwhile: the membership stands as it is, and the request is done.
      if (!(await this.communities.roleOf(pending.communityId, pending.userId)))
        await this.communities.members.addMemberAsSystem(
          pending.communityId,
          pending.userId,
          pending.role as CommunityRole,
          pending.visible === 1,
        );
    }
    await this.repo.close(row.id);
  }

  /** An optional `message` (InvenioRDM sends rich text), stored as the request's first comment. */
  private readMessage(body: unknown, errors: ErrorItem[]) {
    const message = (body as { message?: unknown } | null)?.message;
    if (message === undefined || message === null || message === '') return undefined;
    if (typeof message !== 'string') {
      errors.push({ field: 'message', messages: ['Not a valid string.'] });
      return undefined;
    }
    if (message.length > COMMENT_MAX) {
      errors.push({ field: 'message', messages: [`Longer than maximum length ${COMMENT_MAX}.`] });
      return undefined;
    }
    return sanitizedComment({ content: message, format: 'html' });
  }

  /**
   * Makes one request with what it would make of its person, submitted, in the caller's
   * transaction. Two open ones for the same person and community meet the unique index: the
   * later is refused with `duplicate`, whatever the timing.
   */
  private async open(input: {
    type: MemberRequestType;
    community: Community;
    by: User;
    userId: number;
    role: CommunityRole;
    visible: boolean;
    title: string;
    message: ReturnType<MembershipsService['readMessage']>;
    duplicate: string;
  }): Promise<RequestView> {
    const row = await this.requests.create({
      type: input.type,
      createdBy: input.by.id,
      communityId: input.community.row.id,
      ...(input.type === INVITATION ? { receiverUserId: input.userId } : {}),
      topicRecordId: null,
      title: input.title,
    });
    try {
      await this.repo.insert({
        requestId: row.id,
        communityId: input.community.row.id,
        userId: input.userId,
        role: input.role,
        visible: input.visible ? 1 : 0,
        isOpen: 1,
        createdAt: row.createdAt,
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('VALIDATION_FAILED', input.duplicate);
      throw error;
    }
    return this.requests.run(row, 'submit', input.by, input.message);
  }

  /** POST …/invitations: owners and managers invite users with a role they may give (204). */
  async invite(user: User | undefined, idOrSlug: string, body: unknown): Promise<void> {
    const current = await this.communities.forAction(user, idOrSlug, (p) => p.can_manage_members);
    const members = this.communities.members;
    const errors: ErrorItem[] = [];
    const ids = await members.memberIds(body, errors);
    const role = members.readRole(body, errors, true);
    const visible = members.readVisible(body, errors);
    const message = this.readMessage(body, errors);
    if (errors.length > 0) throw validationFailed(errors);
    if (!members.manageable(current.user, current.permissions.role).includes(role!))
      throw permissionDenied();
    for (const id of ids) {
      if (
        (await this.communities.roleOf(current.row.id, id)) ||
        (await this.repo.openFor(current.row.id, id))
      )
        throw new AppError('VALIDATION_FAILED', ALREADY);
    }
    // All or none: an invitation refused halfway (a race) leaves none of the others behind.
    await inTransaction(this.db, async () => {
      for (const id of ids)
        await this.open({
          type: INVITATION,
          community: current,
          by: current.user,
          userId: id,
          role: role!,
          visible: visible !== false,
          title: `Invitation to join "${titleOf(current)}"`,
          message,
          duplicate: ALREADY,
        });
    });
  }

  /**
   * POST …/membership-requests: a signed-in person who is not a member asks to join a community
   * whose member policy is open (201, the request). The managers choose the role when they accept;
   * until then it is `reader`.
   */
  async requestMembership(
    user: User | undefined,
    idOrSlug: string,
    body: unknown,
  ): Promise<RequestView> {
    const community = await this.communities.read(user, idOrSlug);
    if (!user) throw permissionDenied();
    if (community.data.access.member_policy === 'closed')
      throw new AppError(
        'PERMISSION_DENIED',
        'This community does not accept membership requests.',
      );
    const errors: ErrorItem[] = [];
    const message = this.readMessage(body, errors);
    if (errors.length > 0) throw validationFailed(errors);
    if (community.permissions.role)
      throw new AppError('VALIDATION_FAILED', 'You are already a member of this community.');
    const duplicate = 'You already have an open invitation or request to join this community.';
    if (await this.repo.openFor(community.row.id, user.id))
      throw new AppError('VALIDATION_FAILED', duplicate);
    return inTransaction(this.db, () =>
      this.open({
        type: MEMBERSHIP_REQUEST,
        community,
        by: user,
        userId: user.id,
        role: 'reader',
        visible: false,
        title: `Request to join "${titleOf(community)}"`,
        message,
        duplicate,
      }),
    );
  }

  /**
   * GET …/invitations and …/membership-requests: the community's, for its owners and managers,
   * open ones first; `is_open` narrows, `q` finds a person.
   */
  async search(
    user: User | undefined,
    idOrSlug: string,
    type: MemberRequestType,
    query: SearchQueryValues,
  ) {
    const community = await this.communities.forAction(user, idOrSlug, (p) => p.can_manage_members);
    const params = searchParams(query, { defaultSort: () => 'newest', filters: ['is_open'] });
    const isOpen = params.filters.is_open?.[0];
    const { rows, total } = await this.repo.search(community.row.id, type, {
      q: params.q,
      ...(isOpen === 'true' || isOpen === 'false' ? { isOpen: isOpen === 'true' } : {}),
      offset: (params.page - 1) * params.size,
      limit: params.size,
    });
    return { community, params, rows, total };
  }

  /**
   * PUT …/invitations and …/membership-requests: the role (and visibility) that open ones would
   * give, within the roles the caller may give (204).
   */
  async update(
    user: User | undefined,
    idOrSlug: string,
    type: MemberRequestType,
    body: unknown,
  ): Promise<void> {
    const current = await this.communities.forAction(user, idOrSlug, (p) => p.can_manage_members);
    const members = this.communities.members;
    const errors: ErrorItem[] = [];
    const ids = await members.memberIds(body, errors);
    const role = members.readRole(body, errors, false);
    const visible = members.readVisible(body, errors);
    if (errors.length === 0 && role === undefined && visible === undefined)
      errors.push({ field: 'role', messages: ['Missing data for required field.'] });
    if (errors.length > 0) throw validationFailed(errors);
    const manageable = members.manageable(current.user, current.permissions.role);
    if (role !== undefined && !manageable.includes(role)) throw permissionDenied();
    const requestIds: string[] = [];
    for (const [i, id] of ids.entries()) {
      const pending = await this.repo.openFor(current.row.id, id);
      const request = pending && (await this.requests.get(pending.requestId));
      if (!pending || request?.type !== type)
        throw validationFailed([
          {
            field: `members.${i}.id`,
            messages: [
              type === INVITATION
                ? 'No open invitation for this user.'
                : 'No open membership request from this user.',
            ],
          },
        ]);
      requestIds.push(pending.requestId);
    }
    await this.repo.setRole(requestIds, {
      ...(role !== undefined ? { role } : {}),
      ...(visible !== undefined ? { visible: visible ? 1 : 0 } : {}),
    });
  }

  /** The membership a request would make, for its page. */
  async pendingOf(requestId: string) {
    return this.repo.byRequest(requestId);
  }
}
