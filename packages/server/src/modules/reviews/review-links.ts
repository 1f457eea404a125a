import { permissionDenied, validationFailed } from '../../errors.js';
import type { User } from '../users/users.service.js';
import type { CommunitiesService } from '../communities/communities.service.js';
import type { ParentReview } from '../records/records.rows.js';
import type { PreparedReview, ReviewOpening } from '../records/records-drafts.service.js';
import type { LoadedDraft, RecordStore } from '../records/records.shared.js';
import type { RequestRow } from '../requests/requests.repository.js';
import type { RequestsService } from '../requests/requests.service.js';

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

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
      receiver: { community: row.receiverCommunityId },
      status: row.status as ParentReview['status'],
    });
  }

  /**
   * The community a review body points at, as the caller may choose it: 400 for a bad type or an
   * unknown community (errors under `prefix`), 403 for one the caller cannot see.
   */
  async receiverOf(user: User | undefined, body: unknown, prefix = '') {
    const source = isObject(body) ? body : {};
    const errors = [];
    if (source.type !== 'community-submission')
      errors.push({ field: `${prefix}type`, messages: ['Invalid review type.'] });
    const receiver = isObject(source.receiver) ? source.receiver.community : undefined;
    if (typeof receiver !== 'string' || receiver === '')
      errors.push({ field: `${prefix}receiver`, messages: ['Missing data for required field.'] });
    if (errors.length > 0) throw validationFailed(errors);
    const community = await this.communities.find(receiver as string);
    if (!community || community.row.deletedAt)
      throw validationFailed([
        { field: `${prefix}receiver.community`, messages: ['Community not found.'] },
      ]);
    if (!(await this.communities.permissions(user, community)).can_read) throw permissionDenied();
    return community;
  }

  /** `parent.review` of a new draft: checked as PUT review checks it, opened once the draft exists. */
  async prepareReview(user: User, body: unknown): Promise<PreparedReview> {
    const community = await this.receiverOf(user, body, 'parent.review.');
    return {
      restricted: community.data.access.visibility === 'restricted',
      attach: async (loaded) => {
        await this.link(loaded, await this.newRequest(user, loaded, community.row.id));
      },
    };
  }
}
