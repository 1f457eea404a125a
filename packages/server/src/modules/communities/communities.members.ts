import { COMMUNITY_ROLES, type ErrorItem, type SearchQueryValues } from '@cairn/shared';
import { AppError, permissionDenied, validationFailed } from '../../errors.js';
import { nowIso } from '../../database/database.js';
import { searchParams } from '../../lib/search.js';
import type { User, UsersService } from '../users/users.service.js';
import type { CommunitiesRepository, MemberRow } from './communities.repository.js';
import { isRole, type CommunityRole } from './communities.roles.js';
import type { CommunitiesService } from './communities.service.js';

/** Which roles each role may give, change or take away (InvenioRDM's COMMUNITIES_ROLES). */
const MANAGEABLE_ROLES: Record<CommunityRole, readonly CommunityRole[]> = {
  owner: COMMUNITY_ROLES,
  manager: ['manager', 'curator', 'reader'],
  curator: [],
  reader: [],
};

const MEMBERS_MAX_PER_CALL = 100;

/**
 * A community's members: who may list them, add them, change their role or visibility, or remove
 * them (InvenioRDM's rules, and a community always keeps an owner).
 */
export class CommunityMembers {
  constructor(
    private readonly repo: CommunitiesRepository,
    private readonly users: UsersService,
    private readonly communities: Pick<
      CommunitiesService,
      'read' | 'forAction' | 'membershipChanged'
    >,
  ) {}

  async listMembers(
    user: User | undefined,
    idOrSlug: string,
    query: SearchQueryValues,
    publicOnly: boolean,
  ) {
    const community = await this.communities.read(user, idOrSlug);
    const p = community.permissions;
    const allowed = publicOnly
      ? p.can_read && community.data.access.members_visibility === 'public'
      : p.can_read_members;
    if (!allowed) throw permissionDenied();
    const params = searchParams(query, {
      defaultSort: () => 'name',
      filters: ['role'],
    });
    // Members see every member; the public list shows those who chose to be visible.
    const visibleOnly = publicOnly;
    const { rows, total } = await this.repo.members(community.row.id, {
      visibleOnly,
      offset: (params.page - 1) * params.size,
      limit: params.size,
      q: params.q,
      // The public list names no roles, so it cannot be filtered by them either.
      ...(params.filters.role && !publicOnly ? { roles: params.filters.role } : {}),
    });
    return { community, params, rows, total, publicOnly };
  }

  /** The members of a members body, each a user that exists. */
  async memberIds(body: unknown, errors: ErrorItem[]): Promise<number[]> {
    const members = (body as { members?: unknown } | null)?.members;
    if (!Array.isArray(members) || members.length === 0) {
      errors.push({
        field: 'members',
        messages: [
          members === undefined
            ? 'Missing data for required field.'
            : 'Shorter than minimum length 1.',
        ],
      });
      return [];
    }
    if (members.length > MEMBERS_MAX_PER_CALL) {
      errors.push({
        field: 'members',
        messages: [`Longer than maximum length ${MEMBERS_MAX_PER_CALL}.`],
      });
      return [];
    }
    const ids: number[] = [];
    for (const [i, m] of members.entries()) {
      const entry = m as { type?: unknown; id?: unknown } | null;
      const id =
        typeof entry?.id === 'string' || typeof entry?.id === 'number' ? String(entry.id) : '';
      if (entry?.type !== 'user') {
        errors.push({ field: `members.${i}.type`, messages: ['Must be one of: user.'] });
      } else if (!/^\d+$/.test(id) || !(await this.users.findById(Number(id)))) {
        errors.push({ field: `members.${i}.id`, messages: ['User not found.'] });
      } else if (ids.includes(Number(id))) {
        errors.push({ field: `members.${i}.id`, messages: ['Duplicate member.'] });
      } else ids.push(Number(id));
    }
    return ids;
  }

  readRole(body: unknown, errors: ErrorItem[], required: boolean): CommunityRole | undefined {
    const role = (body as { role?: unknown } | null)?.role;
    if (role === undefined && !required) return undefined;
    if (!isRole(role)) {
      errors.push({
        field: 'role',
        messages: [
          role === undefined
            ? 'Missing data for required field.'
            : `Must be one of: ${COMMUNITY_ROLES.join(', ')}.`,
        ],
      });
      return undefined;
    }
    return role;
  }

  readVisible(body: unknown, errors: ErrorItem[]): boolean | undefined {
    const visible = (body as { visible?: unknown } | null)?.visible;
    if (visible === undefined) return undefined;
    if (typeof visible !== 'boolean')
      errors.push({ field: 'visible', messages: ['Not a valid boolean.'] });
    return visible === true;
  }

  /** The roles the caller may hand out or take away here; all for administrators. */
  manageable(user: User, role: CommunityRole | undefined): readonly CommunityRole[] {
    if (user.isAdmin) return COMMUNITY_ROLES;
    return role ? MANAGEABLE_ROLES[role] : [];
  }

  private async assertOwnerRemains(communityId: string, losing: number): Promise<void> {
    if (losing > 0 && (await this.repo.countRole(communityId, 'owner')) <= losing) {
      throw new AppError('VALIDATION_FAILED', 'A community must keep at least one owner.');
    }
  }

  /** POST …/members: owners and managers add users directly with a role they may give. */
  async addMembers(user: User | undefined, idOrSlug: string, body: unknown): Promise<void> {
    const current = await this.communities.forAction(user, idOrSlug, (p) => p.can_manage_members);
    const errors: ErrorItem[] = [];
    const ids = await this.memberIds(body, errors);
    const role = this.readRole(body, errors, true);
    const visible = this.readVisible(body, errors);
    if (errors.length > 0) throw validationFailed(errors);
    if (!this.manageable(current.user, current.permissions.role).includes(role!))
      throw permissionDenied();
    for (const id of ids) {
      if (
        (await this.repo.member(current.row.id, id)) ||
        (await this.repo.hasOpenMemberRequest(current.row.id, id))
      )
        throw new AppError('VALIDATION_FAILED', 'A member was already added or invited.');
    }
    this.communities.membershipChanged();
    const now = nowIso();
    await this.repo.upsertMembers(
      ids.map((userId) => ({
        communityId: current.row.id,
        userId,
        role: role!,
        visible: visible === false ? 0 : 1,
        revisionId: 1,
        createdAt: now,
        updatedAt: now,
      })),
    );
  }

  /** PUT …/members: change role and/or visibility; a member may change only its own visibility. */
  async updateMembers(user: User | undefined, idOrSlug: string, body: unknown): Promise<void> {
    const current = await this.communities.forAction(user, idOrSlug, () => true);
    const errors: ErrorItem[] = [];
    const ids = await this.memberIds(body, errors);
    const role = this.readRole(body, errors, false);
    const visible = this.readVisible(body, errors);
    if (errors.length === 0 && role === undefined && visible === undefined)
      errors.push({ field: 'role', messages: ['Missing data for required field.'] });
    if (errors.length > 0) throw validationFailed(errors);
    const rows = await this.existingMembers(current.row.id, ids);
    const manageable = this.manageable(current.user, current.permissions.role);
    for (const row of rows) {
      const self = row.userId === current.user.id;
      if (
        role !== undefined &&
        !(manageable.includes(row.role as CommunityRole) && manageable.includes(role))
      )
        throw permissionDenied();
      if (
        visible !== undefined &&
        !self &&
        !current.user.isAdmin &&
        !current.permissions.can_manage_members
      )
        throw permissionDenied();
    }
    if (role !== undefined && role !== 'owner')
      await this.assertOwnerRemains(current.row.id, rows.filter((r) => r.role === 'owner').length);
    this.communities.membershipChanged();
    const now = nowIso();
    await this.repo.upsertMembers(
      rows.map((r) => ({
        ...r,
        role: role ?? r.role,
        visible: visible === undefined ? r.visible : visible ? 1 : 0,
        revisionId: r.revisionId + 1,
        updatedAt: now,
      })),
    );
  }

  /** DELETE …/members: managers remove those they may manage; anyone may leave. */
  async removeMembers(user: User | undefined, idOrSlug: string, body: unknown): Promise<void> {
    const current = await this.communities.forAction(user, idOrSlug, () => true);
    const errors: ErrorItem[] = [];
    const ids = await this.memberIds(body, errors);
    if (errors.length > 0) throw validationFailed(errors);
    const rows = await this.existingMembers(current.row.id, ids);
    const manageable = this.manageable(current.user, current.permissions.role);
    for (const row of rows) {
      if (row.userId !== current.user.id && !manageable.includes(row.role as CommunityRole))
        throw permissionDenied();
    }
    await this.assertOwnerRemains(current.row.id, rows.filter((r) => r.role === 'owner').length);
    this.communities.membershipChanged();
    await this.repo.removeMembers(current.row.id, ids);
  }

  private async existingMembers(communityId: string, ids: number[]): Promise<MemberRow[]> {
    const rows: MemberRow[] = [];
    for (const [i, id] of ids.entries()) {
      const row = await this.repo.member(communityId, id);
      if (!row)
        throw validationFailed([
          { field: `members.${i}.id`, messages: ['Not a member of this community.'] },
        ]);
      rows.push(row);
    }
    return rows;
  }

  /**
   * With no permission check: for the CLI and demo data, and for an accepted invitation or request
   * to join (whose acceptance was checked). A new member is visible unless `visible` says not.
   */
  async addMemberAsSystem(
    communityId: string,
    userId: number,
    role: CommunityRole,
    visible?: boolean,
  ): Promise<void> {
    this.communities.membershipChanged();
    const now = nowIso();
    const existing = await this.repo.member(communityId, userId);
    await this.repo.upsertMembers([
      {
        communityId,
        userId,
        role,
        visible: visible === undefined ? (existing?.visible ?? 1) : visible ? 1 : 0,
        revisionId: (existing?.revisionId ?? 0) + 1,
        createdAt: existing?.createdAt ?? now,
        updatedAt: now,
      },
    ]);
  }
}
