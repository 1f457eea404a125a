import type { TestAccount, TestServer } from './server.js';

/** The REST API as one account, through a personal access token (what API clients do). */
export async function apiAs(server: TestServer, account: TestAccount) {
  const { token } = await server.services.users.createToken(account.user.id, 'e2e');
  return async (method: string, path: string, body?: unknown, type = 'application/json') => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': type }),
      },
      ...(body === undefined
        ? {}
        : {
            body:
              typeof body === 'string'
                ? body
                : Buffer.isBuffer(body)
                  ? new Uint8Array(body)
                  : JSON.stringify(body),
          }),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return text ? (JSON.parse(text) as Record<string, any>) : {};
  };
}

export type Api = Awaited<ReturnType<typeof apiAs>>;

/** A draft with one CSV file, made through the API; returns its id. */
export function draftWithFile(
  api: Api,
  metadata: Record<string, unknown>,
  access?: Record<string, unknown>,
): Promise<string> {
  return draftWithFiles(
    api,
    metadata,
    { 'counts.csv': 'site,count\nBass Rock,150000\nNoss,11000\n' },
    access,
  );
}

/** A draft with `files` (name → content), made through the API; returns its id. */
export async function draftWithFiles(
  api: Api,
  metadata: Record<string, unknown>,
  files: Record<string, string | Buffer>,
  access?: Record<string, unknown>,
): Promise<string> {
  const draft = await api('POST', '/api/records', {
    metadata,
    ...(access ? { access } : {}),
  });
  const id = draft.id as string;
  await api(
    'POST',
    `/api/records/${id}/draft/files`,
    Object.keys(files).map((key) => ({ key })),
  );
  for (const [key, content] of Object.entries(files)) {
    await api(
      'PUT',
      `/api/records/${id}/draft/files/${encodeURIComponent(key)}/content`,
      content,
      'application/octet-stream',
    );
    await api('POST', `/api/records/${id}/draft/files/${encodeURIComponent(key)}/commit`);
  }
  return id;
}

// One login helper for every journey; re-exported so journeys import their helpers from one place.
export { logIn } from './test.js';
