import { z } from 'zod';
import { BooleanFilter, facet, Flag, idParams, searchQuery } from './common.js';

export const REQUEST_SORTS = ['bestmatch', 'newest', 'oldest'] as const;

export const RequestSearchQuery = searchQuery(REQUEST_SORTS, {
  is_open: BooleanFilter,
  type: facet(['community-submission', 'community-inclusion']),
  status: facet(['created', 'submitted', 'accepted', 'declined', 'cancelled', 'expired']),
  expand: Flag,
});

export const RequestTimelineQuery = searchQuery(['oldest'], { expand: Flag });

export const RequestIdParams = idParams('Request uuid');
export const RequestActionParams = RequestIdParams.extend({
  action: z.string().describe('accept, decline, cancel or submit (expire is the system’s)'),
});
export const RequestCommentParams = RequestIdParams.extend({
  commentId: z.string().describe('Comment (event) uuid'),
});
