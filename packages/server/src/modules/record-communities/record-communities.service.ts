import type { z } from 'zod';
import type {
  DefaultCommunityBody,
  IncludeCommunitiesBody,
  RecordData,
  RemoveCommunitiesBody,
  SearchQueryValues,
} from '@cairn/shared';
import { AppError, permissionDenied } from '../../errors.js';
import type { BodyReader } from '../../lib/body.js';
import { readJson } from '../../database/schema.js';
import type { User } from '../users/users.service.js';
import {
  CURATOR_ROLES,
  type CommunitiesService,
  type Community,
  type CommunityHits,
} from '../communities/communities.service.js';
import type { ParentData, ParentRow } from '../records/records.rows.js';
import type { RecordAccessService } from '../records/records-access.service.js';
import type { RecordResult, RecordStore } from '../records/records.shared.js';
import { receivingCommunity, type RequestRow } from '../requests/requests.repository.js';
import {
  sanitizedComment,
  type CommentPayload,
  type RequestAction,
  type RequestsService,
  type RequestView,
} from '../requests/requests.service.js';
import {
  MEMBERS_ONLY_MESSAGE,
  PUBLIC_INTO_RESTRICTED_MESSAGE,
} from '../reviews/reviews.service.js';

export const ALREADY_INCLUDED_MESSAGE = 'Community already included.';
export const OPEN_REQUEST_MESSAGE =
  'There is already an open inclusion request for this community.';
export const COMMUNITY_NOT_FOUND_MESSAGE = 'Community not found.';
export const NOT_IN_COMMUNITY_DEFAULT_MESSAGE =
  'Cannot set community as the default. The record has not been added to the community.';

interface InclusionEntry {
  id: string;
  requireReview: boolean;
  comment?: CommentPayload;
}

/** One processed inclusion: the request, accepted at once when the caller includes directly. */
export interface Processed {
  community_id: string;
  request_id: string;
  view: RequestView;
}

export interface BulkErrors {
  errors: Array<{ community_id?: string; community?: string; message: string }>;
}

/** The entries of an inclusion body the route's schema parsed. */
function inclusionEntries(body: z.output<typeof IncludeCommunitiesBody>): InclusionEntry[] {
  return body.communities.map((item) => {
    const comment = item.comment?.payload;
    return {
      id: item.id,
      requireReview: item.require_review === true,
      ...(comment ? { comment: sanitizedComment(comment) } : {}),
    };
  });
}

/**
 * Published records and the communities they are in, as InvenioRDM's API has them: a community's
 * records, a record's communities, inclusion into further communities through `community-inclusion`
 * requests, removal and the default community.
 */
export class RecordCommunitiesService {
  constructor(
    private readonly store: RecordStore,
    private readonly records: RecordAccessService,
    private readonly communities: CommunitiesService,
    private readonly requests: RequestsService,
  ) {
    requests.registerHandler('community-inclusion', {
      onAction: (action, row) => this.onAction(action, row),
      serialize: (row, fn) => store.lockedTopic(row.topicRecordId, fn),
    });
  }

  /**
   * GET /api/communities/{id}/records: the community must be readable by the caller (404 unknown,
   * 410 deleted, 403 restricted to outsiders); its members and administrators see every record in
   * it, others the public ones and their own.
   */
  async communityScope(
    user: User | undefined,
    idOrSlug: string,
  ): Promise<{ communityId: string; seesAll: boolean }> {
    const community = await this.communities.read(user, idOrSlug);
    return {
      communityId: community.row.id,
      seesAll: user?.isAdmin === true || community.permissions.role !== undefined,
    };
  }

  private idsOf(parent: ParentRow): string[] {
    return (readJson<ParentData>(parent.data).communities.ids as string[] | undefined) ?? [];
  }

  /** InvenioRDM's can_manage on a record: its owner, curators of its communities, admins. */
  private async mayManage(user: User | undefined, parent: ParentRow): Promise<boolean> {
    if (!user) return false;
    if (this.records.owns(user, parent)) return true;
    for (const id of this.idsOf(parent)) {
      const role = await this.communities.roleOf(id, user.id);
      if (role && CURATOR_ROLES.has(role)) return true;
    }
    return false;
  }

  /**
   * The parent of a record the caller may read. A draft that was never published answers for
   * its owner too (InvenioRDM resolves the draft for the communities search).
   */
  private async readableParent(user: User | undefined, id: string): Promise<ParentRow> {
    try {
      return (await this.records.readVisible(user, id)).parent;
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'PID_NOT_REGISTERED') throw error;
      return (await this.records.draftForFiles(user, id)).parent;
    }
  }

  /** The id of a record (or of its owner's unpublished draft) the caller may read. */
  async readableRecordId(user: User | undefined, id: string): Promise<string> {
    await this.readableParent(user, id);
    return id;
  }

  /** GET /api/records/{id}/communities: the record's communities the caller may see. */
  async list(user: User | undefined, id: string, query: SearchQueryValues): Promise<CommunityHits> {
    const parent = await this.readableParent(user, id);
    return this.communities.search(user, query, false, { ids: this.idsOf(parent) });
  }

  /**
   * GET /api/records/{id}/communities-suggestions: communities the record could still join, for
   * those who may request it; `membership=true` keeps the caller's own communities. Those the
   * record is in or has an open inclusion request to are left out.
   */
  async suggestions(
    user: User | undefined,
    id: string,
    query: SearchQueryValues,
  ): Promise<CommunityHits> {
    const record = await this.records.readVisible(user, id);
    if (!(await this.mayManage(user, record.parent))) throw permissionDenied();
    const requested = (await this.requests.openAbout('community-inclusion', record.row.id)).map(
      receivingCommunity,
    );
    const [flag] = (query.membership as string[] | undefined) ?? [];
    const membership = flag === 'true' || flag === '1';
    return this.communities.search(user, query, membership, {
      exclude: [...this.idsOf(record.parent), ...requested],
    });
  }

  /** A live community by uuid or slug, or undefined. */
  private async live(idOrSlug: string): Promise<Community | undefined> {
    const community = await this.communities.find(idOrSlug);
    return community && !community.row.deletedAt ? community : undefined;
  }

  /**
   * POST /api/records/{id}/communities: for each community a `community-inclusion` request,
   * submitted, and accepted at once when the caller may include directly and did not ask for a
   * review. Per-community refusals are collected; the whole call is 400 when none was processed.
   */
  async include(
    user: User | undefined,
    id: string,
    body: z.output<typeof IncludeCommunitiesBody>,
  ): Promise<{ processed: Processed[] } & BulkErrors> {
    const entries = inclusionEntries(body);
    const record = await this.records.readVisible(user, id);
    if (!(await this.mayManage(user, record.parent))) throw permissionDenied();
    const processed: Processed[] = [];
    const errors: BulkErrors['errors'] = [];
    for (const entry of entries) {
      try {
        // Under the record's lock: parallel calls cannot both find the community missing and
        // both open a request for it.
        processed.push(
          await this.store.lockedTopic(record.row.id, () => this.includeOne(user!, record, entry)),
        );
      } catch (error) {
        if (!(error instanceof AppError) || error.status >= 500 || error.code === 'CONFLICT')
          throw error;
        errors.push({ community_id: entry.id, message: error.message });
      }
    }
    return { processed, errors };
  }

  private async includeOne(
    user: User,
    record: RecordResult,
    entry: InclusionEntry,
  ): Promise<Processed> {
    const community = await this.live(entry.id);
    if (!community) throw new AppError('NOT_FOUND', COMMUNITY_NOT_FOUND_MESSAGE);
    const permissions = await this.communities.permissions(user, community);
    if (!permissions.can_read) throw new AppError('NOT_FOUND', COMMUNITY_NOT_FOUND_MESSAGE);
    if (!permissions.can_submit_record)
      throw new AppError('PERMISSION_DENIED', MEMBERS_ONLY_MESSAGE);
    const communityId = community.row.id;
    // The parent as it is now: an earlier entry of this call may have included directly.
    const parent = (await this.records.recordAsSystem(record.row.id))?.parent ?? record.parent;
    if (this.idsOf(parent).includes(communityId))
      throw new AppError('VALIDATION_FAILED', ALREADY_INCLUDED_MESSAGE);
    if ((await this.requests.openAbout('community-inclusion', record.row.id, communityId)).length)
      throw new AppError('VALIDATION_FAILED', OPEN_REQUEST_MESSAGE);
    this.assertAccessFits(record.row.data, community);
    const row = await this.requests.create({
      type: 'community-inclusion',
      createdBy: user.id,
      communityId,
      topicRecordId: record.row.id,
      title: record.row.title,
    });
    const atOnce = !entry.requireReview && permissions.can_include_directly;
    let view = await this.requests.run(row, 'submit', user, entry.comment, { notify: !atOnce });
    if (atOnce) {
      await this.requests.run(view.row, 'accept', 'system', undefined, { notify: false });
      view = await this.requests.view(user, (await this.requests.get(row.id))!);
    }
    return { community_id: entry.id, request_id: row.id, view };
  }

  private assertAccessFits(data: unknown, community: Community): void {
    if (
      community.data.access.visibility === 'restricted' &&
      readJson<RecordData>(data).access.record === 'public'
    )
      throw new AppError('VALIDATION_FAILED', PUBLIC_INTO_RESTRICTED_MESSAGE);
  }

  /** Accepting an inclusion puts the record's parent into the community (first one: default). */
  private async onAction(action: RequestAction, row: RequestRow): Promise<void> {
    if (action !== 'accept') return;
    const record = row.topicRecordId
      ? await this.records.recordAsSystem(row.topicRecordId)
      : undefined;
    if (!record) throw new AppError('VALIDATION_FAILED', 'The record of this request was deleted.');
    const community = await this.live(receivingCommunity(row));
    if (!community)
      throw new AppError('VALIDATION_FAILED', 'The community of this request was deleted.');
    this.assertAccessFits(record.row.data, community);
    await this.store.changeCommunities(record.parent.id, { add: community.row.id });
  }

  /**
   * DELETE /api/records/{id}/communities: each community the record is in may be removed by the
   * record's owner or that community's curators, managers and owners (InvenioRDM with
   * RDM_ALLOW_OWNERS_REMOVE_COMMUNITY_FROM_RECORD). Removing the default unsets it.
   */
  async remove(
    user: User | undefined,
    id: string,
    body: z.output<typeof RemoveCommunitiesBody>,
  ): Promise<{ removed: number } & BulkErrors> {
    const entries = body.communities;
    const record = await this.records.readVisible(user, id);
    const ids = this.idsOf(record.parent);
    const removable: string[] = [];
    const errors: BulkErrors['errors'] = [];
    for (const entry of entries) {
      // Ids are uuids on the parent; a slug names the same community.
      const communityId = ids.includes(entry.id)
        ? entry.id
        : ((await this.communities.find(entry.id))?.row.id ?? entry.id);
      if (!ids.includes(communityId)) {
        errors.push({
          community: entry.id,
          message: `The record ${record.row.id} in not included in the community ${entry.id}.`,
        });
        continue;
      }
      const role = user ? await this.communities.roleOf(communityId, user.id) : undefined;
      if (!user || !(this.records.owns(user, record.parent) || (role && CURATOR_ROLES.has(role)))) {
        errors.push({ community: entry.id, message: 'Permission denied.' });
        continue;
      }
      removable.push(communityId);
    }
    if (removable.length > 0)
      await this.store.changeCommunities(record.parent.id, { remove: removable });
    return { removed: removable.length, errors };
  }

  /**
   * PUT /api/records/{id}/communities: `{default: uuid | slug | null | ""}` by those who manage the
   * record; the community must be one of the record's (400 otherwise). Returns the parent.
   */
  async setDefault(
    user: User | undefined,
    id: string,
    body: BodyReader<z.output<typeof DefaultCommunityBody>>,
  ): Promise<ParentRow> {
    const record = await this.records.readVisible(user, id);
    if (!(await this.mayManage(user, record.parent))) throw permissionDenied();
    const raw = body().default;
    if (!raw) return this.store.changeCommunities(record.parent.id, { default: null });
    const community = await this.communities.find(raw);
    const communityId = community?.row.id;
    if (!communityId || !this.idsOf(record.parent).includes(communityId))
      throw new AppError('VALIDATION_FAILED', NOT_IN_COMMUNITY_DEFAULT_MESSAGE);
    return this.store.changeCommunities(record.parent.id, { default: communityId });
  }
}
