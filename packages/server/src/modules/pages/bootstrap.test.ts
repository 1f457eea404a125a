import { FILES_EMBEDDED_MAX } from '@cairn/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../test/databases.js';
import type { TestApp } from '../../test/app.js';
import { addMember, createCommunity, requestAs } from '../../test/communities.js';
import { FilesApi, PUBLISHABLE_METADATA } from '../../test/files.js';
import { bootstrapOf, createPagesTestApp } from '../../test/pages.js';

/** The draft the deposit page carries at the end of its body. */
function streamedDraftOf(html: string): Record<string, unknown> {
  const match =
    /<script id="cairn-draft" type="application\/json">([\s\S]*?)<\/script>\s*<\/body>/.exec(html);
  if (!match?.[1]) throw new Error('no draft at the end of the page');
  return JSON.parse(match[1]) as Record<string, unknown>;
}

describe.each(ENGINES)('deposit page bootstrap (%s)', (engine) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createPagesTestApp(engine, {
      CAIRN_FILES_MAX_PER_RECORD: '7',
      CAIRN_UPLOAD_CONCURRENCY: '4',
      CAIRN_PUBLISH_MODAL_EXTRA: JSON.stringify({
        checkboxes: [{ id: 'terms', label: 'I accept the terms.' }],
      }),
      CAIRN_CREATOR_MODE: 'off',
      CAIRN_RESTRICTION_GRACE_DAYS: '10',
      CAIRN_FILES_ALLOW_EMPTY: 'false',
      CAIRN_CUSTOM_FIELDS_UI: JSON.stringify([
        { field: 'journal:journal' },
        {
          field: 'cern:experiment',
          ui_widget: 'ComingSoonField',
          props: { label: 'Experiment' },
        },
      ]),
    });
  });
  /** A draft titled "Gulls" (and nothing else: publishing would find errors) of the caller. */
  async function createDraft(headers: Record<string, string>): Promise<string> {
    const created = await t.request({
      method: 'POST',
      url: '/api/records',
      headers,
      payload: { metadata: { title: 'Gulls' } },
    });
    expect(created.statusCode, created.body).toBe(201);
    return created.json<{ id: string }>().id;
  }

  afterAll(() => t.close());

  it('tells the editor its configuration', async () => {
    const user = await t.user();
    const res = await t.request({ method: 'GET', url: '/uploads/new', headers: user.headers });
    expect(res.statusCode).toBe(200);
    expect(bootstrapOf(res.body)['config']).toMatchObject({
      createUrl: '/api/records',
      defaultLocale: 'en',
      quota: { maxFiles: 7, maxStorage: 1e10 },
      allowEmptyFiles: false,
      fileUploadConcurrency: 4,
      defaultTransferType: 'L',
      enabledTransferTypes: ['L', 'M'],
      publishModalExtra: { checkboxes: [{ id: 'terms', label: 'I accept the terms.' }], text: '' },
      gracePeriodDays: 10,
      allowRestrictionAfterGracePeriod: false,
      creatorMode: 'off',
      vocabularyCustomFields: [],
    });
  });

  it("tells the uploader the person's own quota where one was set, on both deposit pages", async () => {
    const limited = await t.user();
    await t.services.files.setUserQuota(limited.id, 2, 5000);
    const fresh = await t.request({ method: 'GET', url: '/uploads/new', headers: limited.headers });
    expect(bootstrapOf(fresh.body)['config']).toMatchObject({
      quota: { maxFiles: 2, maxStorage: 5000 },
    });
    const id = await createDraft(limited.headers);
    const edit = await t.request({
      method: 'GET',
      url: `/uploads/${id}`,
      headers: limited.headers,
    });
    expect(bootstrapOf(edit.body)['config']).toMatchObject({
      quota: { maxFiles: 2, maxStorage: 5000 },
    });

    // Only the bytes are their own: the number of files falls back to the configured one.
    await t.services.files.setUserQuota(limited.id, null, 5000);
    const mixed = await t.request({ method: 'GET', url: '/uploads/new', headers: limited.headers });
    expect(bootstrapOf(mixed.body)['config']).toMatchObject({
      quota: { maxFiles: 7, maxStorage: 5000 },
    });
  });

  it("tells the uploader the draft owner's quota when an administrator edits the draft", async () => {
    // The files go into the owner's record, so the owner's quota is the one the server applies.
    const owner = await t.user();
    await t.services.files.setUserQuota(owner.id, 2, 5000);
    const admin = await t.user(undefined, { admin: true });
    await t.services.files.setUserQuota(admin.id, 50, 9000);
    const id = await createDraft(owner.headers);
    const edit = await t.request({ method: 'GET', url: `/uploads/${id}`, headers: admin.headers });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(bootstrapOf(edit.body)['config']).toMatchObject({
      quota: { maxFiles: 2, maxStorage: 5000 },
    });
  });

  it("tells the deposit page the person's role in the draft's communities, and in no other", async () => {
    // The picker reads each community's role from the API as it pages: a member of 10,000
    // communities was sent all of them with every deposit page (477 KB).
    const owner = await t.user();
    const member = await t.user();
    const kept = await createCommunity(t, owner, 'roles-kept', {});
    const curated = await createCommunity(t, owner, 'roles-curated', { review_policy: 'open' });
    const gone = await createCommunity(t, owner, 'roles-gone', {});
    await addMember(t, owner, kept, member, 'reader');
    await addMember(t, owner, curated, member, 'curator');
    await addMember(t, owner, gone, member, 'manager');

    const memberships = async (url: string, headers: Record<string, string>) =>
      (
        bootstrapOf((await t.request({ method: 'GET', url, headers })).body)['config'] as {
          userCommunitiesMemberships: unknown;
        }
      ).userCommunitiesMemberships;
    expect(await memberships('/uploads/new', member.headers)).toEqual({});
    const draft = await createDraft(member.headers);
    expect(await memberships(`/uploads/${draft}`, member.headers)).toEqual({});
    const review = await requestAs(t, 'PUT', `/api/records/${draft}/draft/review`, member, {
      receiver: { community: curated },
      type: 'community-submission',
    });
    expect(review.statusCode, review.body).toBe(200);
    expect(await memberships(`/uploads/${draft}`, member.headers)).toEqual({
      [curated]: 'curator',
    });
    // The draft's community expanded for the header carries the role too, as the picker's do.
    const page = await t.request({
      method: 'GET',
      url: `/uploads/${draft}`,
      headers: member.headers,
    });
    const expanded = streamedDraftOf(page.body) as Record<string, any>;
    expect(expanded['expanded'].parent.review.receiver.ui.membership_role).toBe('curator');
    // A community deleted since is nobody's any more.
    const toGone = await requestAs(t, 'PUT', `/api/records/${draft}/draft/review`, member, {
      receiver: { community: gone },
      type: 'community-submission',
    });
    expect(toGone.statusCode, toGone.body).toBe(200);
    const deleted = await requestAs(t, 'DELETE', `/api/communities/${gone}`, owner);
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(await memberships(`/uploads/${draft}`, member.headers)).toEqual({});
    // Other pages have no community header.
    expect(await memberships('/communities', member.headers)).toEqual({});
  });

  it("gives the draft's owner every permission on the edit page", async () => {
    const user = await t.user();
    const id = await createDraft(user.headers);
    const res = await t.request({ method: 'GET', url: `/uploads/${id}`, headers: user.headers });
    expect(bootstrapOf(res.body)['permissions']).toEqual({
      can_manage: true,
      can_new_version: true,
      can_delete_draft: true,
    });
  });

  it('gives the editor the community its draft is submitted to, as the API expands it', async () => {
    const owner = await t.user();
    const depositor = await t.user();
    const community = await t.request({
      method: 'POST',
      url: '/api/communities',
      headers: owner.headers,
      payload: {
        slug: 'gulls',
        metadata: { title: 'Gull watch' },
        access: { review_policy: 'open' },
      },
    });
    expect(community.statusCode, community.body).toBe(201);
    const communityId = community.json<{ id: string }>().id;
    const created = await t.request({
      method: 'POST',
      url: '/api/records',
      headers: depositor.headers,
      payload: { metadata: { title: 'Gulls' } },
    });
    const id = created.json<{ id: string }>().id;
    const review = await t.request({
      method: 'PUT',
      url: `/api/records/${id}/draft/review`,
      headers: depositor.headers,
      payload: { receiver: { community: communityId }, type: 'community-submission' },
    });
    expect(review.statusCode, review.body).toBe(200);

    const res = await t.request({
      method: 'GET',
      url: `/uploads/${id}`,
      headers: depositor.headers,
    });
    const draft = streamedDraftOf(res.body) as Record<string, any>;
    expect(draft['expanded'].parent.review).toMatchObject({
      status: 'created',
      receiver: {
        id: communityId,
        slug: 'gulls',
        metadata: { title: 'Gull watch' },
        ui: { permissions: { can_include_directly: false, can_submit_record: true } },
      },
    });
  });

  it('sends the draft after the page, with its validation feedback and without ui', async () => {
    const user = await t.user();
    const id = await createDraft(user.headers);

    const res = await t.request({ method: 'GET', url: `/uploads/${id}`, headers: user.headers });

    expect(res.statusCode).toBe(200);
    // The head (and the scripts in it) does not wait for the draft.
    expect(bootstrapOf(res.body)['draft']).toBeNull();
    const draft = streamedDraftOf(res.body);
    expect(draft).toMatchObject({ id, metadata: { title: 'Gulls' } });
    expect(draft).not.toHaveProperty('ui');
    const errors = draft['errors'] as { field: string }[];
    expect(errors.map((e) => e.field)).toContain('metadata.creators');
  });

  it("answers someone else's or a missing draft with the error page and its status", async () => {
    const owner = await t.user();
    const other = await t.user();
    const id = await createDraft(owner.headers);

    const forbidden = await t.request({
      method: 'GET',
      url: `/uploads/${id}`,
      headers: other.headers,
    });
    expect(forbidden.statusCode).toBe(403);
    expect(bootstrapOf(forbidden.body)['error']).toMatchObject({ status: 403 });
    expect(forbidden.body).not.toContain('id="cairn-draft"');

    const missing = await t.request({
      method: 'GET',
      url: '/uploads/zzzzz-zzzzz',
      headers: owner.headers,
    });
    expect(missing.statusCode).toBe(404);
    expect(bootstrapOf(missing.body)['error']).toMatchObject({ status: 404 });
  });
});

describe.each(ENGINES)('deposit page of a draft of many files (%s)', (engine) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createPagesTestApp(engine, { CAIRN_FILES_MAX_PER_RECORD: '200' });
  });
  afterAll(() => t.close());

  it('names the files listing to read at once when the draft is too large to carry its entries', async () => {
    const user = await t.user();
    const ids: string[] = [];
    for (const count of [FILES_EMBEDDED_MAX, FILES_EMBEDDED_MAX + 1]) {
      const created = await t.request({
        method: 'POST',
        url: '/api/records',
        headers: user.headers,
        payload: { metadata: { title: 'Gulls' }, files: { enabled: true } },
      });
      const id = created.json<{ id: string }>().id;
      const init = await t.request({
        method: 'POST',
        url: `/api/records/${id}/draft/files`,
        headers: user.headers,
        payload: Array.from({ length: count }, (_, i) => ({ key: `f${i}.csv`, size: 1 })),
      });
      expect(init.statusCode, init.body).toBe(201);
      ids.push(id);
    }
    const [few, many] = await Promise.all(
      ids.map((id) => t.request({ method: 'GET', url: `/uploads/${id}`, headers: user.headers })),
    );
    expect(bootstrapOf(few!.body)).not.toHaveProperty('filesListing');
    expect(bootstrapOf(many!.body)['filesListing']).toBe(`/api/records/${ids[1]}/draft/files`);
    expect(streamedDraftOf(many!.body)['files']).toMatchObject({ entries_omitted: true });
    // The browser fetches the listing's first page while the app's scripts load.
    expect(listingPreloadsOf(few!.body)).toEqual([]);
    expect(listingPreloadsOf(many!.body)).toEqual([
      `/api/records/${ids[1]}/draft/files?page=1&size=1000`,
    ]);
  });

  it("has the browser fetch a large record's first files page with its landing page, for those who may read them", async () => {
    const owner = await t.user();
    const stranger = await t.user();
    const api = new FilesApi(t, owner);
    /** A record of `count` files, under `files` access. */
    async function published(count: number, files: 'public' | 'restricted') {
      const { id } = await api.createDraft({
        metadata: PUBLISHABLE_METADATA,
        access: { record: 'public', files },
      });
      await api.uploadAll(
        id,
        Array.from({ length: count }, (_, i) => `f${i}.csv`),
      );
      await api.publish(id);
      return id;
    }
    const open = await published(FILES_EMBEDDED_MAX + 1, 'public');
    const few = await published(2, 'public');
    const closed = await published(FILES_EMBEDDED_MAX + 1, 'restricted');
    const page = async (id: string, headers: Record<string, string> = {}) => {
      const res = await t.request({ method: 'GET', url: `/records/${id}`, headers });
      expect(res.statusCode, res.body).toBe(200);
      return listingPreloadsOf(res.body);
    };
    const firstPage = (id: string) => [`/api/records/${id}/files?page=1&size=1000`];
    expect(await page(open)).toEqual(firstPage(open));
    expect(await page(few)).toEqual([]);
    // Files the reader may not read are not fetched for them; their owner's are.
    expect(await page(closed, stranger.headers)).toEqual([]);
    expect(await page(closed)).toEqual([]);
    expect(await page(closed, owner.headers)).toEqual(firstPage(closed));
    // What is preloaded is what the app asks for: the listing's page as the API answers it.
    const listed = await api.get(firstPage(open)[0]!);
    expect(listed.json()).toMatchObject({ total: FILES_EMBEDDED_MAX + 1 });
  });
});

/** The files listings the page has the browser fetch before its app asks for them. */
function listingPreloadsOf(html: string): string[] {
  return [...html.matchAll(/<link rel="preload" as="fetch" crossorigin href="([^"]+)">/g)].map(
    (m) => m[1]!.replace(/&#38;|&amp;/g, '&'),
  );
}
