import type { z } from 'zod';
import type { RecordData, SubmitReviewBody } from '@cairn/shared';
import type { BodyReader } from '../../lib/body.js';
import { AppError, validationFailed } from '../../errors.js';
import { readJson } from '../../database/schema.js';
import { checkRevision } from '../../lib/revision.js';
import type { User } from '../users/users.service.js';
import type { CommunitiesService } from '../communities/communities.service.js';
import { presentCommunityStub } from '../communities/communities.presenter.js';
import type { PresentOptions } from '../records/records.presenter.js';
import type { ParentData, ParentReview, ParentRow } from '../records/records.rows.js';
import type { RecordAccessService } from '../records/records-access.service.js';
import type { RecordDraftsService } from '../records/records-drafts.service.js';
import type { RecordPublishingService } from '../records/records-publishing.service.js';
import { reviewOf, type LoadedDraft, type RecordStore } from '../records/records.shared.js';
import type { Review, ReviewLinks } from './review-links.js';
import { receivingCommunity, type RequestRow } from '../requests/requests.repository.js';
import {
  sanitizedComment,
  type Actor,
  type CommentPayload,
  type RequestAction,
  type RequestsService,
  type RequestView,
} from '../requests/requests.service.js';

type SubmitReview = z.output<typeof SubmitReviewBody>;

export const REVIEW_NOT_FOUND = 'Review for draft not found';
export const MEMBERS_ONLY_MESSAGE =
  'Submission to this community is only allowed to community members.';
export const PUBLIC_INTO_RESTRICTED_MESSAGE =
  'A public record cannot be included in a restricted community.';
export const AUTO_ACCEPT_MESSAGE =
  'This request has been automatically accepted, as the uploader can submit to community directly without review.';
const CLOSED = new Set(['declined', 'expired', 'cancelled']);

/**
 * Community submission of a first-version draft, as InvenioRDM handles it: the review link on the
 * parent, submitting, automatic acceptance, and publishing on accept.
 */
export class ReviewsService {
  constructor(
    private readonly store: RecordStore,
    private readonly access: RecordAccessService,
    private readonly drafts: RecordDraftsService,
    private readonly publishing: RecordPublishingService,
    private readonly links: ReviewLinks,
    private readonly communities: CommunitiesService,
    private readonly requests: RequestsService,
    private readonly siteUrl: string,
  ) {
    requests.registerHandler('community-submission', {
      onAction: (action, row, actor) => this.onAction(action, row, actor),
      submit: (row, user, payload) => this.submitRequest(row, user, payload),
      serialize: (row, fn) => store.lockedTopic(row.topicRecordId, fn),
    });
  }

  private async requestOf(review: ParentReview | undefined): Promise<RequestRow | undefined> {
    return review ? this.requests.get(review.id) : undefined;
  }

  /** The review's request, locked after the draft's parent, for an action that changes it. */
  private async lockedRequestOf(review: ParentReview | undefined): Promise<RequestRow | undefined> {
    return review ? this.requests.getForUpdate(review.id) : undefined;
  }

  /** GET {draft}/review: the owner and, while it is open, the curators. */
  async read(user: User | undefined, draftId: string): Promise<RequestView> {
    const loaded = await this.access.draftForFiles(user, draftId);
    const row = await this.requestOf(reviewOf(loaded.parent));
    if (!row) throw new AppError('NOT_FOUND', REVIEW_NOT_FOUND);
    return this.requests.view(user, row);
  }

  /** The refusals common to changing a review: published drafts and new versions have none. */
  private assertReviewable(loaded: LoadedDraft): void {
    if (loaded.isPublished)
      throw new AppError('VALIDATION_FAILED', 'Cannot create a review for a published record.');
    if (loaded.row.versionIndex > 1)
      throw new AppError(
        'VALIDATION_FAILED',
        'A new version of a record in a community needs no review: publish it directly.',
      );
  }

  /**
   * PUT {draft}/review: creates the review, or points a not yet submitted one at another
   * community; a closed one is replaced. A restricted community makes the draft restricted.
   */
  async put(
    user: User | undefined,
    draftId: string,
    body: BodyReader<Review>,
    ifMatch?: string,
  ): Promise<RequestView> {
    return this.store.lockedDraft(user, draftId, 'manage', (loaded) =>
      this.putLoaded(user, loaded, body, ifMatch),
    );
  }

  private async putLoaded(
    user: User | undefined,
    loaded: LoadedDraft,
    body: BodyReader<Review>,
    ifMatch?: string,
  ): Promise<RequestView> {
    this.assertReviewable(loaded);
    const community = await this.links.receiverOf(user, body());

    let row = await this.lockedRequestOf(reviewOf(loaded.parent));
    if (row) checkRevision(ifMatch, row.revisionId);
    if (row?.status === 'submitted')
      throw new AppError('VALIDATION_FAILED', 'An open review cannot be changed. Cancel it first.');
    if (row?.status === 'created') {
      row = await this.requests.changeReceiver(row, community.row.id);
    } else {
      row = await this.links.newRequest(user!, loaded, community.row.id);
    }
    if (community.data.access.visibility === 'restricted')
      await this.drafts.restrictDraft(loaded, user!);
    await this.links.link(loaded, row);
    return this.requests.view(user, row);
  }

  /** DELETE {draft}/review: 404 without one, 400 while open; closed requests stay, unlinked. */
  async delete(user: User | undefined, draftId: string, ifMatch?: string): Promise<void> {
    await this.store.lockedDraft(user, draftId, 'manage', async (loaded) => {
      const row = await this.lockedRequestOf(reviewOf(loaded.parent));
      if (!row) throw new AppError('NOT_FOUND', REVIEW_NOT_FOUND);
      checkRevision(ifMatch, row.revisionId);
      if (row.status === 'submitted')
        throw new AppError('VALIDATION_FAILED', 'An open review cannot be deleted.');
      if (row.status === 'created') await this.requests.discard(row);
      await this.store.setReview(loaded.parent.id, undefined);
    });
  }

  /**
   * POST {draft}/actions/submit-review (202): members-only communities refuse outsiders (403),
   * the draft must be publishable, and a caller who may include directly is accepted at once.
   */
  async submit(
    user: User | undefined,
    draftId: string,
    body: BodyReader<SubmitReview>,
  ): Promise<{ view: RequestView; nextHtml: string }> {
    // Under the draft's lock: of parallel submits one wins, the others find the review submitted
    // (400), or the draft published when it was included at once (404).
    return this.store.lockedDraft(user, draftId, 'manage', (loaded) =>
      this.submitDraft(user, loaded, body),
    );
  }

  private async submitDraft(
    user: User | undefined,
    loaded: LoadedDraft,
    body: BodyReader<SubmitReview>,
  ): Promise<{ view: RequestView; nextHtml: string }> {
    this.assertReviewable(loaded);
    const row = await this.lockedRequestOf(reviewOf(loaded.parent));
    if (!row) throw new AppError('NOT_FOUND', REVIEW_NOT_FOUND);
    if (row.status === 'submitted')
      throw new AppError('VALIDATION_FAILED', 'The draft is already submitted for review.');
    const { require_review: requireReview, payload } = body();
    return this.submitLoaded(user, loaded, row, payload ? sanitizedComment(payload) : undefined, {
      direct: requireReview !== true,
    });
  }

  /**
   * `POST /api/requests/{id}/actions/submit` on a community submission: the same rules as
   * submit-review, which InvenioRDM checks in the request's submit action; never published at
   * once, as only submit-review includes directly.
   */
  private async submitRequest(
    row: RequestRow,
    user: User,
    payload?: CommentPayload,
  ): Promise<RequestView> {
    const loaded = row.topicRecordId
      ? await this.access.draftForManage(user, row.topicRecordId)
      : undefined;
    if (!loaded || reviewOf(loaded.parent)?.id !== row.id)
      throw new AppError(
        'VALIDATION_FAILED',
        'The draft of this request is no longer under review.',
      );
    this.assertReviewable(loaded);
    return (await this.submitLoaded(user, loaded, row, payload, { direct: false })).view;
  }

  private async submitLoaded(
    user: User | undefined,
    loaded: LoadedDraft,
    current: RequestRow,
    payload: CommentPayload | undefined,
    { direct }: { direct: boolean },
  ): Promise<{ view: RequestView; nextHtml: string }> {
    let row = current;
    const community = await this.communities.find(receivingCommunity(row));
    if (!community || community.row.deletedAt)
      throw validationFailed([{ field: 'receiver.community', messages: ['Community not found.'] }]);
    const permissions = await this.communities.permissions(user, community);
    if (!permissions.can_submit_record)
      throw new AppError('PERMISSION_DENIED', MEMBERS_ONLY_MESSAGE);
    await this.publishing.assertPublishable(loaded.row);
    this.assertAccessFits(loaded.row.data, community.data.access.visibility);

    if (CLOSED.has(row.status)) {
      // A declined, expired or cancelled review is resubmitted as a new request to the same place.
      row = await this.links.newRequest(user!, loaded, receivingCommunity(row));
      await this.links.link(loaded, row);
    } else {
      await this.requests.setTitle(row, loaded.row.title);
      row = (await this.requests.get(row.id))!;
    }
    const atOnce = direct && permissions.can_include_directly;
    let view = await this.requests.run(row, 'submit', user!, payload, { notify: !atOnce });
    if (atOnce) {
      await this.requests.run(view.row, 'accept', 'system', undefined, { notify: false });
      await this.requests.systemComment(row.id, AUTO_ACCEPT_MESSAGE);
      view = await this.requests.view(user, (await this.requests.get(row.id))!);
      return { view, nextHtml: `${this.siteUrl}/records/${loaded.row.id}` };
    }
    return { view, nextHtml: `${this.siteUrl}/me/requests/${row.id}` };
  }

  private assertAccessFits(data: unknown, visibility: string): void {
    if (visibility === 'restricted' && readJson<RecordData>(data).access.record === 'public')
      throw new AppError('VALIDATION_FAILED', PUBLIC_INTO_RESTRICTED_MESSAGE);
  }

  /**
   * The request's effect on the draft: accepting publishes it into the community, every other
   * action copies the new status onto the parent so the draft's status follows.
   */
  private async onAction(action: RequestAction, row: RequestRow, _actor: Actor): Promise<void> {
    const loaded = row.topicRecordId
      ? await this.access.draftAsSystem(row.topicRecordId)
      : undefined;
    if (!loaded || reviewOf(loaded.parent)?.id !== row.id)
      throw new AppError(
        'VALIDATION_FAILED',
        'The draft of this request is no longer under review.',
      );
    if (action === 'accept') {
      const community = await this.communities.find(receivingCommunity(row));
      if (!community || community.row.deletedAt)
        throw new AppError('VALIDATION_FAILED', 'The community of this request was deleted.');
      this.assertAccessFits(loaded.row.data, community.data.access.visibility);
      await this.publishing.publishIntoCommunity(loaded.row.id, community.row.id);
      return;
    }
    const status = {
      submit: 'submitted',
      decline: 'declined',
      cancel: 'cancelled',
      expire: 'expired',
    }[action] as ParentReview['status'];
    await this.store.setReview(loaded.parent.id, { ...reviewOf(loaded.parent)!, status });
  }

  /** Community stubs for `expanded.parent` of a draft or record (the editor's header and buttons). */
  async expandParent(
    parent: ParentRow,
    user: User | undefined,
    ui: boolean,
  ): Promise<PresentOptions['expandedParent']> {
    const data = readJson<ParentData>(parent.data);
    const review = data.review;
    const defaultId = data.communities.default as string | undefined;
    const ids = [review?.receiver.community, defaultId].filter((x): x is string => Boolean(x));
    if (ids.length === 0) return undefined;
    const found = new Map((await this.communities.getMany(ids)).map((c) => [c.row.id, c]));
    const stub = async (id: string, withUi: boolean) => {
      const community = found.get(id);
      const permissions =
        withUi && community ? await this.communities.permissions(user, community) : undefined;
      return presentCommunityStub(community, id, this.siteUrl, permissions);
    };
    return {
      ...(review
        ? {
            review: {
              id: review.id,
              type: review.type,
              status: review.status,
              receiver: await stub(review.receiver.community, ui),
            },
          }
        : {}),
      ...(defaultId ? { default: await stub(defaultId, false) } : {}),
    };
  }
}
