import crypto from 'node:crypto';
import type { Readable } from 'node:stream';
import type { COMMUNITY_SORTS } from '@cairn/shared';
import { curationPolicyOf, type ErrorItem, type SearchQueryValues } from '@cairn/shared';
import { AppError, permissionDenied, pidDoesNotExist, validationFailed } from '../../errors.js';
import { nowIso } from '../../database/database.js';
import { readJson } from '../../database/schema.js';
import { checkRevision } from '../../lib/revision.js';
import { monotonicNow } from '../../lib/monotonic-time.js';
import { searchParams, type SearchParams } from '../../lib/search.js';
import type { User, UsersService } from '../users/users.service.js';
import { normaliseSearchText } from '../vocabularies/search-text.js';
import type { CommunitiesRepository, CommunityRow } from './communities.repository.js';
import {
  isUuid,
  readCommunityBody,
  SLUG_TAKEN_MESSAGE,
  validateSlug,
  type CommunityData,
} from './communities.validation.js';
import { CURATOR_ROLES, isRole, type CommunityRole } from './communities.roles.js';
import { CommunityMembers } from './communities.members.js';

export { COMMUNITY_ROLES, COMMUNITY_SORTS } from '@cairn/shared';
export { CURATOR_ROLES, type CommunityRole } from './communities.roles.js';

export const LOGO_MAX_BYTES = 1_000_000;
const FACETS_TTL_MS = 10_000;
const FACETS_CACHE_MAX = 10_000;

export interface Community {
  row: CommunityRow;
  data: CommunityData;
}

/** What the caller may do with one community; `ui.permissions` and the routes read it. */
export interface CommunityPermissions {
  role?: CommunityRole;
  can_read: boolean;
  can_update: boolean;
  can_delete: boolean;
  can_rename: boolean;
  can_manage_members: boolean;
  can_curate: boolean;
  can_submit_record: boolean;
  can_include_directly: boolean;
  can_read_members: boolean;
}

export interface CommunityHits {
  params: SearchParams;
  communities: Array<Community & { permissions: CommunityPermissions }>;
  total: number;
  facets: {
    type: Array<{ key: string; count: number }>;
    visibility: Array<{ key: string; count: number }>;
  };
}

/** The searchable text of a community: slug, title, description, type and organisations. */
function searchTextOf(slug: string, data: CommunityData): string {
  const m = data.metadata as { title?: string; description?: string; type?: { id: string } };
  const organizations =
    (data.metadata.organizations as Array<{ name?: string; id?: string }>) ?? [];
  const parts = [
    slug,
    m.title,
    m.description,
    m.type?.id,
    ...organizations.map((o) => o.name ?? o.id),
  ];
  return ` ${normaliseSearchText(parts.filter(Boolean).join(' '))} `;
}

function rowFields(slug: string, data: CommunityData) {
  return {
    data: JSON.stringify(data),
    title: typeof data.metadata.title === 'string' ? data.metadata.title : '',
    searchText: searchTextOf(slug, data),
    visibility: data.access.visibility,
    typeId: (data.metadata.type as { id?: string } | undefined)?.id ?? null,
  };
}

async function readCapped(
  stream: Readable,
  limit: number,
): Promise<{ bytes: Buffer; size: number }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    // Keep counting past the limit for the message, but stop keeping the bytes.
    if (size <= limit) chunks.push(buffer);
  }
  return { bytes: Buffer.concat(chunks), size };
}

const megabytes = (n: number) => `${(n / 1_000_000).toFixed(2)} MB`;

/**
 * Communities and their members: InvenioRDM's rules for who may read, change, curate and submit.
 * Other modules ask it for roles and permissions.
 */
export class CommunitiesService {
  /** Listing, adding, changing and removing a community's members. */
  readonly members: CommunityMembers;

  constructor(
    private readonly repo: CommunitiesRepository,
    users: UsersService,
  ) {
    this.members = new CommunityMembers(repo, users, this);
  }

  /**
   * Facet counts per caller scope, briefly: they scan every visible community and cost more than
   * the search itself, while the picker never shows them. Every write here clears them; another
   * app server's writes show within FACETS_TTL_MS.
   */
  private readonly facetCache = new Map<string, { at: number; value: CommunityHits['facets'] }>();

  private async facets(visibleTo: { userId?: number } | undefined, memberOf: number | undefined) {
    const key = `${visibleTo ? (visibleTo.userId ?? 'anonymous') : 'all'}:${memberOf ?? ''}`;
    const cached = this.facetCache.get(key);
    if (cached && Date.now() - cached.at < FACETS_TTL_MS) return cached.value;
    const value = await this.repo.facetCounts(visibleTo, memberOf);
    if (this.facetCache.size >= FACETS_CACHE_MAX) this.facetCache.clear();
    this.facetCache.set(key, { at: Date.now(), value });
    return value;
  }

  /** Members were added, changed or removed: the facets of the caller's own communities change. */
  membershipChanged(): void {
    this.facetCache.clear();
  }

  private toCommunity(row: CommunityRow): Community {
    return { row, data: readJson<CommunityData>(row.data) };
  }

  /** By uuid or slug, deleted ones included (their tombstone answers 410). */
  async find(idOrSlug: string): Promise<Community | undefined> {
    const row = isUuid(idOrSlug)
      ? await this.repo.get(idOrSlug.toLowerCase())
      : await this.repo.getBySlug(idOrSlug.toLowerCase());
    return row ? this.toCommunity(row) : undefined;
  }

  /** A live community: 404 unknown, 410 deleted. */
  async resolve(idOrSlug: string): Promise<Community> {
    const found = await this.find(idOrSlug);
    if (!found) throw pidDoesNotExist();
    if (found.row.deletedAt) throw new AppError('RECORD_DELETED', 'The record has been deleted.');
    return found;
  }

  async getMany(ids: string[]): Promise<Community[]> {
    return (await this.repo.getMany(ids)).map((r) => this.toCommunity(r));
  }

  async roleOf(
    communityId: string,
    userId: number | undefined,
  ): Promise<CommunityRole | undefined> {
    if (userId === undefined) return undefined;
    const role = (await this.repo.member(communityId, userId))?.role;
    return isRole(role) ? role : undefined;
  }

  /**
   * The user's role in each of `communityIds` it belongs to, deleted communities included as
   * `roleOf` reads them: one statement for a page of requests.
   */
  async rolesOf(userId: number, communityIds: string[]): Promise<Map<string, CommunityRole>> {
    const roles = await this.repo.rolesOf(userId, [...new Set(communityIds)], {
      withDeleted: true,
    });
    return new Map(
      [...roles].filter((entry): entry is [string, CommunityRole] => isRole(entry[1])),
    );
  }

  /** Whether the user curates the community (owner, manager or curator of it). */
  async isCurator(communityId: string, userId: number): Promise<boolean> {
    const role = await this.roleOf(communityId, userId);
    return role !== undefined && CURATOR_ROLES.has(role);
  }

  /** The caller's role in each of `communityIds` it belongs to (the deposit page's header). */
  async membershipsOf(
    userId: number,
    communityIds: string[],
  ): Promise<Record<string, CommunityRole>> {
    const roles = await this.repo.rolesOf(userId, communityIds);
    return Object.fromEntries([...roles].filter(([, r]) => isRole(r))) as Record<
      string,
      CommunityRole
    >;
  }

  /** The rules, given the caller's role; no query. */
  permissionsFor(
    user: User | undefined,
    community: Community,
    role?: CommunityRole,
  ): CommunityPermissions {
    const admin = user?.isAdmin === true;
    // The same reading of the settings as the pages that explain them to people.
    const policy = curationPolicyOf(community.data.access);
    const member = role !== undefined;
    const curator = role !== undefined && CURATOR_ROLES.has(role);
    const ownerish = role === 'owner' || role === 'manager';
    const canRead = policy.visibility === 'public' || member || admin;
    const membersOnly = policy.submission === 'closed';
    return {
      ...(role ? { role } : {}),
      can_read: canRead,
      // Settings and logo are the owners' (invenio-communities' can_update); managers manage members.
      can_update: admin || role === 'owner',
      can_delete: admin || role === 'owner',
      can_rename: admin || role === 'owner',
      can_manage_members: admin || ownerish,
      can_curate: admin || curator,
      can_submit_record: user !== undefined && canRead && (admin || member || !membersOnly),
      can_include_directly:
        admin || (policy.review === 'open' && curator) || (policy.review === 'members' && member),
      // The full list is for members; outsiders use the public list when members are public.
      can_read_members: admin || member,
    };
  }

  async permissions(user: User | undefined, community: Community): Promise<CommunityPermissions> {
    return this.permissionsFor(user, community, await this.roleOf(community.row.id, user?.id));
  }

  /** A live community the caller may read, with what it may do there. */
  async read(user: User | undefined, idOrSlug: string) {
    const community = await this.resolve(idOrSlug);
    const permissions = await this.permissions(user, community);
    if (!permissions.can_read) throw permissionDenied();
    return { ...community, permissions };
  }

  /** A community the caller may act on; 403 unless `allowed` says yes. */
  async forAction(
    user: User | undefined,
    idOrSlug: string,
    allowed: (p: CommunityPermissions) => boolean,
  ) {
    const result = await this.read(user, idOrSlug);
    if (!user || !allowed(result.permissions)) throw permissionDenied();
    return { ...result, user };
  }

  private async assertSlugFree(slug: string, exceptId?: string): Promise<void> {
    const taken = await this.repo.getBySlug(slug);
    if (taken && taken.id !== exceptId)
      throw validationFailed([{ field: 'slug', messages: [SLUG_TAKEN_MESSAGE] }]);
  }

  /** Only administrators verify a community (theme) or give it its own deposit form. */
  private assertAdminFields(user: User, data: CommunityData, previous?: CommunityData): void {
    if (user.isAdmin) return;
    // Absent and disabled are the same: a body read back from GET carries `enabled: false`.
    const enabled = (flag?: { enabled: boolean }) => flag?.enabled === true;
    if (
      enabled(data.theme) !== enabled(previous?.theme) ||
      enabled(data.upload_form) !== enabled(previous?.upload_form)
    )
      throw permissionDenied();
  }

  /** POST /api/communities: any signed-in user; the creator becomes its owner. */
  async create(
    user: User | undefined,
    body: unknown,
  ): Promise<Community & { permissions: CommunityPermissions }> {
    if (!user) throw permissionDenied();
    const errors: ErrorItem[] = [];
    const slug = validateSlug((body as { slug?: unknown } | null)?.slug, errors);
    const data = readCommunityBody(body, errors);
    if (errors.length > 0) throw validationFailed(errors);
    this.assertAdminFields(user, data);
    await this.assertSlugFree(slug!);
    const now = monotonicNow();
    const row: CommunityRow = {
      id: crypto.randomUUID(),
      slug: slug!,
      ...rowFields(slug!, data),
      revisionId: 1,
      createdAt: now,
      updatedAt: now,
      deletedAt: null,
      logoChecksum: null,
    };
    try {
      await this.repo.transaction(async (trx) => {
        await trx.insert(row);
        await trx.upsertMembers([
          {
            communityId: row.id,
            userId: user.id,
            role: 'owner',
            visible: 1,
            revisionId: 1,
            createdAt: now,
            updatedAt: now,
          },
        ]);
      });
    } catch (error) {
      // Two creates racing for one slug: the unique index decides, the loser gets the contract's 400.
      if (await this.repo.getBySlug(slug!))
        throw validationFailed([{ field: 'slug', messages: [SLUG_TAKEN_MESSAGE] }]);
      throw error;
    }
    this.facetCache.clear();
    const community = { row, data };
    return { ...community, permissions: this.permissionsFor(user, community, 'owner') };
  }

  private async write(community: Community, set: Parameters<CommunitiesRepository['update']>[2]) {
    this.facetCache.clear();
    if (!(await this.repo.update(community.row.id, community.row.revisionId, set))) {
      throw new AppError('CONFLICT');
    }
    const row = await this.repo.get(community.row.id);
    return this.toCommunity(row!);
  }

  /** PUT /api/communities/{id}: owners and managers; metadata and access replaced, slug kept. */
  async update(user: User | undefined, idOrSlug: string, body: unknown, ifMatch?: string) {
    const current = await this.forAction(user, idOrSlug, (p) => p.can_update);
    checkRevision(ifMatch, current.row.revisionId);
    const errors: ErrorItem[] = [];
    const data = readCommunityBody(body, errors);
    if (errors.length > 0) throw validationFailed(errors);
    // A body read back from GET carries theme and upload_form: keep them unless an admin changes them.
    if ((body as Record<string, unknown>).theme === undefined && current.data.theme)
      data.theme = current.data.theme;
    if ((body as Record<string, unknown>).upload_form === undefined && current.data.upload_form)
      data.upload_form = current.data.upload_form;
    this.assertAdminFields(current.user, data, current.data);
    const updated = await this.write(current, {
      ...rowFields(current.row.slug, data),
      updatedAt: nowIso(),
    });
    return { ...updated, permissions: current.permissions };
  }

  /** POST /api/communities/{id}/rename: owners only; the new slug obeys the create rules. */
  async rename(user: User | undefined, idOrSlug: string, body: unknown) {
    const current = await this.forAction(user, idOrSlug, (p) => p.can_rename);
    const errors: ErrorItem[] = [];
    const slug = validateSlug((body as { slug?: unknown } | null)?.slug, errors);
    if (errors.length > 0) throw validationFailed(errors);
    await this.assertSlugFree(slug!, current.row.id);
    const updated = await this.write(current, {
      slug: slug!,
      searchText: searchTextOf(slug!, current.data),
      updatedAt: nowIso(),
    });
    return { ...updated, permissions: current.permissions };
  }

  /** DELETE /api/communities/{id}: owners; leaves a tombstone (410) that keeps the slug. */
  async delete(user: User | undefined, idOrSlug: string, ifMatch?: string): Promise<void> {
    const current = await this.forAction(user, idOrSlug, (p) => p.can_delete);
    checkRevision(ifMatch, current.row.revisionId);
    const now = nowIso();
    await this.write(current, { deletedAt: now, updatedAt: now, logo: null, logoChecksum: null });
  }

  /** PUT …/logo: raw bytes up to LOGO_MAX_BYTES, by those who may update the community. */
  async setLogo(user: User | undefined, idOrSlug: string, body: Readable) {
    const current = await this.forAction(user, idOrSlug, (p) => p.can_update);
    const { bytes, size } = await readCapped(body, LOGO_MAX_BYTES);
    if (size > LOGO_MAX_BYTES) {
      throw new AppError(
        'VALIDATION_FAILED',
        `Logo size limit exceeded. Limit: ${megabytes(LOGO_MAX_BYTES)} Given: ${megabytes(size)}`,
      );
    }
    const checksum = `md5:${crypto.createHash('md5').update(bytes).digest('hex')}`;
    const updated = await this.write(current, {
      logo: bytes,
      logoChecksum: checksum,
      updatedAt: nowIso(),
    });
    return { community: updated, size: bytes.length, checksum };
  }

  async readLogo(user: User | undefined, idOrSlug: string): Promise<Buffer> {
    const community = await this.read(user, idOrSlug);
    const logo = community.row.logoChecksum ? await this.repo.logo(community.row.id) : undefined;
    if (!logo) throw new AppError('NOT_FOUND', 'No logo exists for this community.');
    return logo;
  }

  async deleteLogo(user: User | undefined, idOrSlug: string): Promise<void> {
    const current = await this.forAction(user, idOrSlug, (p) => p.can_update);
    if (!current.row.logoChecksum)
      throw new AppError('NOT_FOUND', 'No logo exists for this community.');
    await this.write(current, { logo: null, logoChecksum: null, updatedAt: nowIso() });
  }

  /**
   * GET /api/communities (or the caller's own with `mine`): public communities and the restricted
   * ones the caller belongs to; administrators see all.
   */
  async search(
    user: User | undefined,
    query: SearchQueryValues,
    mine = false,
    scope: { ids?: string[]; exclude?: string[] } = {},
  ): Promise<CommunityHits> {
    const { ids, exclude } = scope;
    if (mine && !user) throw permissionDenied();
    const params = searchParams(query, {
      defaultSort: (hasQuery) => (hasQuery ? 'bestmatch' : 'newest'),
      filters: ['type', 'visibility'],
    });
    const phrase = normaliseSearchText(params.q);
    const visibleTo = user?.isAdmin ? undefined : { userId: user?.id };
    const memberOf = mine ? user!.id : undefined;
    const [{ rows, total }, facets] = await Promise.all([
      this.repo.search({
        words: phrase === '' ? [] : phrase.split(' '),
        phrase,
        sort: params.sort as (typeof COMMUNITY_SORTS)[number],
        offset: (params.page - 1) * params.size,
        limit: params.size,
        memberOf,
        visibleTo,
        type: params.filters.type,
        visibility: params.filters.visibility,
        ...(ids ? { ids } : {}),
        ...(exclude ? { exclude } : {}),
      }),
      // Narrowed scopes are counted directly; the cache is for whole scopes.
      ids || exclude?.length
        ? this.repo.facetCounts(visibleTo, memberOf, ids, exclude)
        : this.facets(visibleTo, memberOf),
    ]);
    const roles = user
      ? await this.repo.rolesOf(
          user.id,
          rows.map((r) => r.id),
        )
      : new Map<string, string>();
    const communities = rows.map((row) => {
      const community = this.toCommunity(row);
      const role = roles.get(row.id);
      return {
        ...community,
        permissions: this.permissionsFor(user, community, isRole(role) ? role : undefined),
      };
    });
    return { params, communities, total, facets };
  }

  // Members
}
