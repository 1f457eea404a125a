import { describe, expect, it } from 'vitest';
import { jsonResponse, stubFetch, stubFetchSequence } from '../test/fetch';
import { ApiClient, ApiError, errorCodeOf, toRequestPath } from './client';

const client = new ApiClient({ csrfCookieName: 'csrftoken', csrfHeaderName: 'X-CSRFToken' });

describe('ApiClient', () => {
  it('sends the CSRF token, the session cookie and JSON on unsafe requests', async () => {
    document.cookie = 'csrftoken=abc%3D123';
    const requests = stubFetchSequence(jsonResponse(201, { id: 'x' }));

    await expect(client.post('/api/records', { metadata: {} })).resolves.toEqual({ id: 'x' });

    const [request] = requests;
    expect(request?.headers.get('X-CSRFToken')).toBe('abc=123');
    expect(request?.headers.get('Content-Type')).toBe('application/json');
    expect(request?.headers.get('Accept')).toBe('application/vnd.inveniordm.v1+json');
    expect(request?.body).toEqual({ metadata: {} });
  });

  it('sends no CSRF token on reads', async () => {
    document.cookie = 'csrftoken=abc';
    const requests = stubFetchSequence(jsonResponse(200, {}));
    await client.get('/api/user/records');
    expect(requests[0]?.headers.has('X-CSRFToken')).toBe(false);
  });

  it('sends the revision a change is based on', async () => {
    const requests = stubFetchSequence(jsonResponse(200, {}));
    await client.put('/api/records/x/draft', {}, { ifMatch: 4 });
    expect(requests[0]?.headers.get('If-Match')).toBe('4');
  });

  it('turns an error answer into an ApiError with its field errors and code', async () => {
    stubFetchSequence(
      jsonResponse(400, {
        status: 400,
        message: 'A validation error occurred.',
        code: 'VALIDATION_FAILED',
        errors: [{ field: 'metadata.title', messages: ['Missing data for required field.'] }],
      }),
    );

    const error = await client.post('/api/records', {}).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 400,
      message: 'A validation error occurred.',
      code: 'VALIDATION_FAILED',
      hasServerMessage: true,
      errors: [{ field: 'metadata.title', messages: ['Missing data for required field.'] }],
    });
  });

  it('gives the code of a failed call, and none for a code this app does not know', async () => {
    stubFetchSequence(
      jsonResponse(412, { status: 412, message: 'Stale.', code: 'REVISION_MISMATCH' }),
      jsonResponse(418, { status: 418, message: 'A teapot.', code: 'TEAPOT' }),
    );
    const stale = await client.get('/api/records/x/draft').catch((caught: unknown) => caught);
    const unknown = await client.get('/api/records/x/draft').catch((caught: unknown) => caught);

    expect(errorCodeOf(stale)).toBe('REVISION_MISMATCH');
    expect(errorCodeOf(unknown)).toBeUndefined();
    expect(errorCodeOf(new Error('Failed to fetch'))).toBeUndefined();
  });

  it('does not take an error page for a server message', async () => {
    stubFetch(
      () => new Response('<html>Bad gateway</html>', { status: 502, statusText: 'Bad Gateway' }),
    );
    await expect(client.get('/api/records/x')).rejects.toMatchObject({
      status: 502,
      hasServerMessage: false,
    });
  });

  it('reports an unreachable server as status 0', async () => {
    stubFetch(() => Promise.reject(new TypeError('Failed to fetch')));
    await expect(client.get('/api/records/x')).rejects.toMatchObject({
      status: 0,
      hasServerMessage: false,
    });
  });

  it('answers undefined for an empty body', async () => {
    stubFetchSequence(new Response(null, { status: 204 }));
    await expect(client.post('/api/auth/logout')).resolves.toBeUndefined();
  });
});

describe('toRequestPath', () => {
  it('keeps requests on the current origin and adds query parameters', () => {
    expect(toRequestPath('http://127.0.0.1:5000/api/records/x/draft', { expand: '1' })).toBe(
      '/api/records/x/draft?expand=1',
    );
    expect(toRequestPath('/api/records?expand=0', { expand: '1' })).toBe('/api/records?expand=1');
  });
});
