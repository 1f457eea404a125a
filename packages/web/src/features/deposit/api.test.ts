import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../api/client';
import { buildDraft, buildRequest } from '../../test/builders';
import { jsonResponse, stubFetchSequence } from '../../test/fetch';
import { createDepositApi } from './api';

const SITE = 'http://127.0.0.1:5000';
const DRAFT = buildDraft({
  links: {
    ...buildDraft().links,
    review: `${SITE}/api/records/abcde-12345/draft/review`,
    'submit-review': `${SITE}/api/records/abcde-12345/draft/actions/submit-review`,
  },
});

function request(status: string, extraLinks: Record<string, string> = {}) {
  return buildRequest({ status, links: extraLinks });
}

function api() {
  document.cookie = 'csrftoken=token-1';
  return createDepositApi(
    new ApiClient({ csrfCookieName: 'csrftoken', csrfHeaderName: 'X-CSRFToken' }),
    '/api/records',
  );
}

describe('the review calls of the deposit API', () => {
  it('creates or updates the review with PUT {links.review}', async () => {
    const requests = stubFetchSequence(jsonResponse(200, request('created')));
    const review = await api().putReview(DRAFT, 'c-1');
    expect(review.status).toBe('created');
    expect(requests[0]).toMatchObject({
      method: 'PUT',
      url: '/api/records/abcde-12345/draft/review',
      body: { receiver: { community: 'c-1' }, type: 'community-submission' },
    });
    expect(requests[0]?.headers.get('X-CSRFToken')).toBe('token-1');
  });

  it('removes the review with DELETE {links.review}', async () => {
    const requests = stubFetchSequence(new Response(null, { status: 204 }));
    await api().deleteReview(DRAFT);
    expect(requests[0]).toMatchObject({
      method: 'DELETE',
      url: '/api/records/abcde-12345/draft/review',
      body: undefined,
    });
  });

  it('submits with the message as an HTML payload, or with an empty object', async () => {
    const requests = stubFetchSequence(
      jsonResponse(202, request('submitted', { next_html: `${SITE}/me/requests/r-1` })),
      jsonResponse(202, request('accepted', { next_html: `${SITE}/records/abcde-12345` })),
    );
    const submitted = await api().submitReview(DRAFT, { content: '<p>Please review</p>' });
    expect(submitted.links.next_html).toBe(`${SITE}/me/requests/r-1`);
    expect(requests[0]).toMatchObject({
      method: 'POST',
      url: '/api/records/abcde-12345/draft/actions/submit-review',
      body: { payload: { content: '<p>Please review</p>', format: 'html' } },
    });

    const accepted = await api().submitReview(DRAFT, { content: '  ' });
    expect(accepted.links.next_html).toBe(`${SITE}/records/abcde-12345`);
    expect(requests[1]?.body).toEqual({});
  });

  it('asks for a review the person could have skipped only when told to', async () => {
    const requests = stubFetchSequence(
      jsonResponse(202, request('submitted')),
      jsonResponse(202, request('submitted')),
    );
    await api().submitReview(DRAFT, { content: '' }, { requireReview: true });
    await api().submitReview(DRAFT, { content: '<p>Hi</p>' }, { requireReview: true });
    expect(requests.map((sent) => sent.body)).toEqual([
      { require_review: true },
      { payload: { content: '<p>Hi</p>', format: 'html' }, require_review: true },
    ]);
  });

  it('passes the server’s refusal on as an ApiError', async () => {
    stubFetchSequence(
      jsonResponse(400, { status: 400, message: 'An open review cannot be deleted.' }),
    );
    await expect(api().deleteReview(DRAFT)).rejects.toMatchObject({
      status: 400,
      message: 'An open review cannot be deleted.',
    });
  });

  it('fails clearly when the draft has no review link', async () => {
    await expect(api().submitReview(buildDraft(), { content: '' })).rejects.toThrow(
      'Draft abcde-12345 has no "submit-review" link.',
    );
  });
});
