import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../test/app.js';
import { createTestApp } from '../test/app.js';
import { ENGINES } from '../test/databases.js';
import { FilesApi, PUBLISHABLE_METADATA, type Caller } from '../test/files.js';
import { createPagesTestApp } from '../test/pages.js';

type Response = Awaited<ReturnType<TestApp['request']>>;

/** A Content-Security-Policy header as directive → sources. */
function policyOf(res: Response): Map<string, string[]> {
  const header = res.headers['content-security-policy'];
  expect(header, 'a Content-Security-Policy header').toBeTypeOf('string');
  return new Map(
    String(header)
      .split(';')
      .map((directive) => directive.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...sources]) => [name!, sources]),
  );
}

/** What every answer carries, pages, API and files alike. */
function expectCheapHeaders(res: Response, https = true): void {
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  if (https) {
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000');
  } else {
    expect(res.headers['strict-transport-security']).toBeUndefined();
  }
}

/** The page policy: scripts from this site only, never framed, no plugins, no foreign base. */
function expectPagePolicy(res: Response): Map<string, string[]> {
  const policy = policyOf(res);
  expect(policy.get('default-src')).toEqual(["'self'"]);
  expect(policy.get('script-src')).toEqual(["'self'"]);
  expect(policy.get('script-src-attr')).toEqual(["'none'"]);
  expect(policy.get('frame-ancestors')).toEqual(["'none'"]);
  expect(policy.get('object-src')).toEqual(["'none'"]);
  expect(policy.get('base-uri')).toEqual(["'self'"]);
  expect(policy.get('form-action')).toEqual(["'self'"]);
  expect(res.headers['x-frame-options']).toBe('DENY');
  return policy;
}

/**
 * Every script element of a page: either loaded from this site or data the browser never runs
 * (the bootstrap, the streamed draft, a landing page's JSON-LD).
 */
function expectNoInlineScript(html: string): void {
  const scripts = [...html.matchAll(/<script\b([^>]*)>/g)].map((m) => m[1]!);
  expect(scripts.length).toBeGreaterThan(0);
  for (const attributes of scripts) {
    const src = /\bsrc="([^"]*)"/.exec(attributes)?.[1];
    const type = /\btype="([^"]*)"/.exec(attributes)?.[1];
    if (src !== undefined) expect(src).toMatch(/^\/(?!\/)/);
    else expect(['application/json', 'application/ld+json']).toContain(type);
  }
}

describe.each(ENGINES)('security headers (%s)', (engine) => {
  let t: TestApp;
  let owner: Caller;
  let api: FilesApi;
  let recordId: string;

  beforeAll(async () => {
    t = await createPagesTestApp(engine);
    owner = await t.user();
    api = new FilesApi(t, owner);
    const { id } = await api.createDraft({ metadata: PUBLISHABLE_METADATA });
    await api.upload(id, 'data.csv', 'a,b\n1,2\n');
    await api.upload(id, 'paper.pdf', '%PDF-1.4\n%%EOF\n');
    await api.publish(id);
    recordId = id;
  });
  afterAll(() => t.close());

  it('gives the pages a policy that runs no inline script, and the cheap headers', async () => {
    const { id: draftId } = await api.createDraft({ metadata: { title: 'Gulls' } });
    for (const url of [
      '/login',
      '/signup',
      '/communities',
      '/me/uploads',
      '/uploads/new',
      `/uploads/${draftId}`,
      `/records/${recordId}`,
      `/records/${draftId}?preview=1`,
      '/account/tokens',
    ]) {
      const res = await t.request({ method: 'GET', url, headers: owner.headers });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expectPagePolicy(res);
      expectCheapHeaders(res);
      expectNoInlineScript(res.body);
    }
  });

  it('lets the page reach only this site by default', async () => {
    const policy = expectPagePolicy(await t.request({ method: 'GET', url: '/login' }));
    expect(policy.get('connect-src')).toEqual(["'self'"]);
    expect(policy.get('img-src')).toEqual(["'self'", 'data:']);
    expect(policy.get('upgrade-insecure-requests')).toEqual([]);
  });

  it('serves the API reference with its script from a file of its own', async () => {
    const res = await t.request({ method: 'GET', url: '/api/docs' });
    expect(res.statusCode).toBe(200);
    expectPagePolicy(res);
    expectNoInlineScript(res.body);
    const script = await t.request({ method: 'GET', url: '/api/docs/reference.js' });
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toMatch(/^text\/javascript/);
    expect(script.body).toContain("fetch('/api/docs/openapi.json')");
  });

  it('gives API answers the cheap headers', async () => {
    const res = await t.request({ method: 'GET', url: `/api/records/${recordId}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expectCheapHeaders(res);
    expect(res.headers['x-frame-options']).toBe('DENY');
    const missing = await t.request({ method: 'GET', url: '/api/nowhere' });
    expect(missing.statusCode).toBe(404);
    expectCheapHeaders(missing);
  });

  it("keeps a download's own policy, and a PDF framable by this site's previews only", async () => {
    const csv = await t.request({
      method: 'GET',
      url: `/api/records/${recordId}/files/data.csv/content`,
    });
    expect(csv.statusCode).toBe(200);
    expectCheapHeaders(csv);
    expect(csv.headers['content-security-policy']).toBe("default-src 'none';");
    expect(csv.headers['x-frame-options']).toBe('deny');

    const pdf = await t.request({
      method: 'GET',
      url: `/api/records/${recordId}/files/paper.pdf/content`,
    });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expectCheapHeaders(pdf);
    expect(pdf.headers['content-security-policy']).toBe(
      "default-src 'none'; frame-ancestors 'self';",
    );
    expect(pdf.headers['x-frame-options']).toBe('sameorigin');
  });
});

describe('security headers of a site on plain http', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createPagesTestApp('sqlite', { CAIRN_SITE_URL: 'http://127.0.0.1:5000' });
  });
  afterAll(() => t.close());

  it('sends no HSTS and does not ask to upgrade requests', async () => {
    const page = await t.request({ method: 'GET', url: '/login' });
    expectCheapHeaders(page, false);
    expect(expectPagePolicy(page).has('upgrade-insecure-requests')).toBe(false);
    expectCheapHeaders(await t.request({ method: 'GET', url: '/api/records' }), false);
  });
});

describe('the page policy with files on S3', () => {
  const S3 = {
    CAIRN_STORAGE: 's3',
    CAIRN_S3_BUCKET: 'cairn-files',
    CAIRN_S3_ACCESS_KEY_ID: 'key',
    CAIRN_S3_SECRET_ACCESS_KEY: 'secret',
  };

  it.each([
    [
      'a public endpoint, path-style',
      {
        CAIRN_S3_ENDPOINT: 'http://rgw.internal:7480',
        CAIRN_S3_PUBLIC_ENDPOINT: 'https://s3.example.org',
        CAIRN_S3_FORCE_PATH_STYLE: 'true',
      },
      'https://s3.example.org',
    ],
    [
      'an endpoint with virtual-hosted buckets',
      { CAIRN_S3_ENDPOINT: 'https://objects.example.org' },
      'https://cairn-files.objects.example.org',
    ],
    [
      'AWS itself',
      { CAIRN_S3_REGION: 'eu-central-1' },
      'https://cairn-files.s3.eu-central-1.amazonaws.com',
    ],
  ])('lets the deposit form send parts to the bucket (%s)', async (_label, env, origin) => {
    const t = await createTestApp('sqlite', { ...S3, ...env });
    try {
      const res = await t.request({ method: 'GET', url: '/api/records' });
      expect(policyOf(res).get('connect-src')).toEqual(["'self'", origin]);
    } finally {
      await t.close();
    }
  });
});
