import { z } from 'zod';
import { idParams } from './common.js';

export const ReviewDraftParams = idParams('Draft id, e.g. ha4g3-7x208');

export const ReviewBody = z.object({
  type: z.literal('community-submission'),
  receiver: z.object({ community: z.string().describe('Community uuid or slug') }),
});

export const SubmitReviewBody = z.object({
  payload: z
    .object({ content: z.string().min(1), format: z.literal('html').optional() })
    .optional()
    .describe('A first comment for the curators'),
  require_review: z
    .boolean()
    .optional()
    .describe('true: review even when the caller may include directly'),
});
