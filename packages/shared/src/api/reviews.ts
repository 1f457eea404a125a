import { z } from 'zod';
import { MESSAGES } from '../validation/messages.js';
import { CommentContent, idParams, objectOrEmpty, staged } from './common.js';

export const ReviewDraftParams = idParams('Draft id, e.g. ha4g3-7x208');

/** A receiver without a community named by a non-empty string is missing as a whole. */
const namedCommunity = (receiver: unknown) => {
  const community = (objectOrEmpty(receiver) as { community?: unknown }).community;
  return typeof community === 'string' && community !== '' ? receiver : undefined;
};

/** `PUT …/draft/review` (and a new draft's `parent.review`): the community to submit to. */
export const ReviewBody = z.preprocess(
  objectOrEmpty,
  z.object({
    type: z.literal('community-submission', { error: 'Invalid review type.' }),
    receiver: z.preprocess(
      namedCommunity,
      z.object(
        { community: z.string().describe('Community uuid or slug') },
        { error: MESSAGES.required },
      ),
    ),
  }),
);

const requireReview = z
  .boolean({ error: MESSAGES.notBoolean })
  .optional()
  .describe('true: review even when the caller may include directly');

/** `POST …/draft/actions/submit-review`: `require_review` is checked before the comment. */
export const SubmitReviewBody = z.preprocess(
  objectOrEmpty,
  staged(
    z.looseObject({ require_review: requireReview }),
    z.object({
      payload: CommentContent.nullish().describe('A first comment for the curators'),
      require_review: requireReview,
    }),
  ),
);
