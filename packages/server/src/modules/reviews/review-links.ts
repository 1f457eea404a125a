import type { z } from 'zod';
import { ReviewBody } from '@cairn/shared';
import { permissionDenied, validationFailed } from '../../errors.js';
import { parsedBody } from '../../lib/zod-errors.js';
import type { User } from '../users/users.service.js';
import type { CommunitiesService } from '../communities/communities.service.js';
import type { ParentReview } from '../records/records.rows.js';
import type { PreparedReview, ReviewOpening } from '../records/records-drafts.service.js';
import type { LoadedDraft, RecordStore } from '../records/records.shared.js';
import { receivingCommunity, type RequestRow } from '../requests/requests.repository.js';
import type { RequestsService } from '../requests/requests.service.js';

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A review body as the shared schema parses it. */
export type Review = z.output<typeof ReviewBody>;

/**
 * A draft's link to its community-submission request: the community a review body points at,
 * a new request, and the link on the parent. Drafts use it to open a review with a new draft;
 * the reviews service for everything after.
 */
export class ReviewLinks implements ReviewOpening {
  constructor(
    private readonly store: RecordStore,
    private readonly communities: CommunitiesService,
    private readonly requests: RequestsService,
  ) {}

  /** A new community submission (status `created`) of the draft, by `user`, to a community. */
  newRequest(user: User, loaded: LoadedDraft, communityId: string): Promise<RequestRow> {
    return this.requests.create({
      type: 'community-submission',
      createdBy: user.id,
      communityId,
      topicRecordId: loaded.row.id,
      title: loaded.row.title,
    });
  }

  async link(loaded: LoadedDraft, row: RequestRow): Promise<void> {
    await this.store.setReview(loaded.parent.id, {
      id: row.id,
      type: 'community-submission',
      receiver: { community: receivingCommunity(row) },
      status: row.status as ParentReview['status'],
    });
  }

  /**
   * The community a review (parsed with the shared ReviewBody) points at, as the caller may
   * choose it: 400 for an unknown community (its field under `prefix`), 403 for one the caller
   * cannot see.
   */
  async receiverOf(user: User | undefined, review: Review, prefix = '') {
    const community = await this.communities.find(review.receiver.community);
    if (!community || community.row.deletedAt)
      throw validationFailed([
        { field: `${prefix}receiver.community`, messages: ['Community not found.'] },
      ]);
    if (!(await this.communities.permissions(user, community)).can_read) throw permissionDenied();
    return community;
  }

  /** `parent.review` of a new draft: checked as PUT review checks it, opened once the draft exists. */
  async prepareReview(user: User, body: unknown): Promise<PreparedReview> {
    const prefix = 'parent.review.';
    const community = await this.receiverOf(user, parsedBody(ReviewBody, body, prefix), prefix);
    return {
      restricted: community.data.access.visibility === 'restricted',
      attach: async (loaded) => {
        await this.link(loaded, await this.newRequest(user, loaded, community.row.id));
      },
    };
  }
}
