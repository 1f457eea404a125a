import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recipientsOf, startTestSmtp, type TestSmtp } from '../../test/smtp.js';
import { ENGINES } from '../../test/databases.js';
import { createTestApp, type TestApp } from '../../test/app.js';
import { expectError, expectValidationFailed } from '../../test/assertions.js';
import { FilesApi, PUBLISHABLE_METADATA, type Caller } from '../../test/files.js';

const HAS_ACCESS = 'You already have access to files of this record.';
const OWN = 'You own this record: there is nothing to request.';
const USERS_OFF = 'This record does not accept access requests from signed-in users.';
const GUESTS_OFF = 'This record does not accept access requests from guests.';
const DUPLICATE = 'The access request is a duplicate: an earlier one is still open.';
const BAD_TOKEN = 'This confirmation link is unknown, was used already, or has expired.';
const SENT = 'Verification link sent out, please check your e-mail inbox';
const OPEN_SETTINGS = {
  allow_user_requests: true,
  allow_guest_requests: true,
  accept_conditions_text: '<p>For research only.</p>',
  secret_link_expiration: 30,
};

describe.each(ENGINES)('access requests on %s', (engine) => {
  let t: TestApp;
  let smtp: TestSmtp;
  let owner: Caller;
  let files: FilesApi;

  beforeAll(async () => {
    smtp = await startTestSmtp();
    t = await createTestApp(engine, {
      CAIRN_SMTP_URL: smtp.url,
      CAIRN_MAIL_FROM: '"Cairn test" <cairn@cairn.test>',
    });
    owner = await t.user();
    files = new FilesApi(t, owner);
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });

  type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  function call(caller: Caller | undefined, method: Method, url: string, body?: unknown) {
    return t.request({
      method,
      url,
      headers: caller?.headers ?? {},
      ...(body !== undefined ? { body: body as object } : {}),
    });
  }

  /** A published record with data.csv: public metadata, files as `files` says. */
  async function publishedRecord(
    access: { record: string; files: string } = { record: 'public', files: 'restricted' },
    settings: unknown = OPEN_SETTINGS,
  ): Promise<string> {
    const id = (await files.createDraft({ metadata: PUBLISHABLE_METADATA, access })).id;
    await files.upload(id, 'data.csv', 'a,b\n1,2\n');
    await files.publish(id);
    if (settings) {
      const res = await call(owner, 'PUT', `/api/records/${id}/access`, settings);
      expect(res.statusCode, res.body).toBe(200);
    }
    return id;
  }

  const ask = (caller: Caller | undefined, id: string, body: unknown = {}) =>
    call(caller, 'POST', `/api/records/${id}/access/request`, body);
  const fileOf = (caller: Caller | undefined, id: string, query = '') =>
    call(caller, 'GET', `/api/records/${id}/files/data.csv/content${query}`);

  /** What the SMTP server received for `address`, once the outbox is sent. */
  async function mailsTo(address: string) {
    await t.services.mail.idle();
    return smtp.received
      .filter((m) => recipientsOf(m).includes(address))
      .map((m) => ({ subject: m.subject ?? '', textBody: m.text ?? '' }));
  }

  /** The token of the last link of `path` e-mailed to `address`. */
  async function tokenMailed(address: string, path: RegExp): Promise<string> {
    const mails = await mailsTo(address);
    const match = path.exec(mails.at(-1)?.textBody ?? '');
    expect(match, JSON.stringify(mails)).not.toBeNull();
    return decodeURIComponent(match![1]!);
  }

  describe('settings', () => {
    it('are replaced by PUT …/access and read back under parent.access.settings', async () => {
      const id = await publishedRecord(undefined, null);
      const before = (await call(owner, 'GET', `/api/records/${id}`)).json();
      expect(before.parent.access.settings).toEqual({
        allow_user_requests: false,
        allow_guest_requests: false,
        accept_conditions_text: null,
        secret_link_expiration: 0,
      });
      // Records advertise both addresses, as InvenioRDM's do.
      expect(before.links.access).toBe(`https://cairn.test/api/records/${id}/access`);
      expect(before.links.access_request).toBe(
        `https://cairn.test/api/records/${id}/access/request`,
      );
      const res = await call(owner, 'PUT', new URL(before.links.access).pathname, OPEN_SETTINGS);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().id).toBe(id);
      expect(res.json().parent.access.settings).toEqual(OPEN_SETTINGS);
      // Every reader sees them, at once (the record's cached JSON is no longer served).
      const read = await call(undefined, 'GET', `/api/records/${id}`);
      expect(read.json().parent.access.settings).toEqual(OPEN_SETTINGS);
      // What a body leaves out is back to its default; a string of days is taken as InvenioRDM does.
      const partial = await call(owner, 'PUT', `/api/records/${id}/access`, {
        allow_guest_requests: true,
        secret_link_expiration: '7',
      });
      expect(partial.json().parent.access.settings).toEqual({
        allow_user_requests: false,
        allow_guest_requests: true,
        accept_conditions_text: null,
        secret_link_expiration: 7,
      });
      // A draft's id answers the draft, with the same settings.
      const draft = (await files.createDraft({ metadata: PUBLISHABLE_METADATA })).id;
      const onDraft = await call(owner, 'PUT', `/api/records/${draft}/access`, OPEN_SETTINGS);
      expect(onDraft.statusCode, onDraft.body).toBe(200);
      expect(onDraft.json().is_draft).toBe(true);
      expect(onDraft.json().parent.access.settings).toEqual(OPEN_SETTINGS);
    });

    it('refuses bad input, strangers, the anonymous and unknown records', async () => {
      const id = await publishedRecord(undefined, null);
      const url = `/api/records/${id}/access`;
      expectValidationFailed(
        await call(owner, 'PUT', url, {
          allow_user_requests: 'yes',
          secret_link_expiration: 366,
          accept_conditions_text: 5,
          colour: 'red',
        }),
        [
          { field: 'allow_user_requests', messages: ['Not a valid boolean.'] },
          { field: 'accept_conditions_text', messages: ['Not a valid string.'] },
          {
            field: 'secret_link_expiration',
            messages: ['Must be greater than or equal to 0 and less than or equal to 365.'],
          },
          { field: '', messages: ['Unknown field.'] },
        ],
      );
      expectValidationFailed(await call(owner, 'PUT', url, { secret_link_expiration: 1.5 }), [
        { field: 'secret_link_expiration', messages: ['Not a valid integer.'] },
      ]);
      const stranger = await t.user();
      expectError(
        await call(stranger, 'PUT', url, OPEN_SETTINGS),
        403,
        'PERMISSION_DENIED',
        'Permission denied.',
      );
      expectError(
        await call(undefined, 'PUT', url, OPEN_SETTINGS),
        403,
        'PERMISSION_DENIED',
        'Permission denied.',
      );
      const missing = await call(owner, 'PUT', '/api/records/aaaaa-bbbbb/access', OPEN_SETTINGS);
      expect(missing.statusCode).toBe(404);
      // A manager by grant changes them as the owner does.
      const manager = await t.user();
      const granted = await call(owner, 'POST', `/api/records/${id}/access/grants`, {
        grants: [{ subject: { type: 'user', id: String(manager.id) }, permission: 'manage' }],
      });
      expect(granted.statusCode, granted.body).toBe(201);
      expect((await call(manager, 'PUT', url, OPEN_SETTINGS)).statusCode).toBe(200);
    });
  });

  describe("a signed-in reader's request", () => {
    it('goes to the owner, who accepts it: the reader gets a view grant and the files', async () => {
      const id = await publishedRecord();
      const reader = await t.user();
      expectError(await fileOf(reader, id), 403, 'PERMISSION_DENIED', 'Permission denied.');
      const res = await ask(reader, id, { message: 'For my thesis <3', email: reader.email });
      expect(res.statusCode, res.body).toBe(200);
      const request = res.json();
      expect(request).toMatchObject({
        type: 'user-access-request',
        status: 'submitted',
        is_open: true,
        created_by: { user: String(reader.id) },
        receiver: { user: String(owner.id) },
        topic: { record: id },
      });
      expect(Object.keys(request.links.actions)).toEqual(['cancel']);
      // The reader's words are its first comment, as text.
      const timeline = (await call(owner, 'GET', `/api/requests/${request.id}/timeline`)).json();
      expect(timeline.hits.hits[0].payload.content).toBe('<p>For my thesis &#60;3</p>');
      // The owner finds it in their inbox, and may accept or decline it.
      const inbox = (await call(owner, 'GET', '/api/user/requests?is_open=true')).json();
      expect(inbox.hits.hits.map((h: { id: string }) => h.id)).toContain(request.id);
      const seen = (await call(owner, 'GET', `/api/requests/${request.id}`)).json();
      expect(Object.keys(seen.links.actions).sort()).toEqual(['accept', 'decline']);
      // No one else decides it.
      expect(
        (await call(reader, 'POST', `/api/requests/${request.id}/actions/accept`)).statusCode,
      ).toBe(403);
      const accepted = await call(owner, 'POST', `/api/requests/${request.id}/actions/accept`, {
        payload: { content: 'Welcome', format: 'html' },
      });
      expect(accepted.statusCode, accepted.body).toBe(200);
      expect(accepted.json().status).toBe('accepted');
      const grants = (await call(owner, 'GET', `/api/records/${id}/access/users`)).json();
      expect(grants.hits.hits).toEqual([
        {
          subject: { type: 'user', id: String(reader.id) },
          permission: 'view',
          origin: `request:${request.id}`,
        },
      ]);
      expect((await fileOf(reader, id)).body).toBe('a,b\n1,2\n');
      // Now that they have the files, there is nothing more to ask.
      expectError(await ask(reader, id), 403, 'PERMISSION_DENIED', HAS_ACCESS);
    });

    it('refuses what the contract refuses, each with its message', async () => {
      const reader = await t.user();
      const open = await publishedRecord({ record: 'public', files: 'public' });
      expectError(await ask(reader, open), 403, 'PERMISSION_DENIED', HAS_ACCESS);
      const off = await publishedRecord(undefined, { allow_guest_requests: true });
      expectError(await ask(reader, off), 403, 'PERMISSION_DENIED', USERS_OFF);
      const id = await publishedRecord();
      expectError(await ask(owner, id), 403, 'PERMISSION_DENIED', OWN);
      const hidden = await publishedRecord({ record: 'restricted', files: 'restricted' });
      expectError(await ask(reader, hidden), 403, 'PERMISSION_DENIED', 'Permission denied.');
      expect((await ask(reader, 'aaaaa-bbbbb')).statusCode).toBe(404);
      expectValidationFailed(await ask(reader, id, { message: 5 }), [
        { field: 'message', messages: ['Not a valid string.'] },
      ]);
      expect((await ask(reader, id)).statusCode).toBe(200);
      expectError(await ask(reader, id, { message: 'again' }), 400, 'VALIDATION_FAILED', DUPLICATE);
      // The web app reads InvenioRDM's UI type, as from every request route.
      const vnd = await t.request({
        method: 'POST',
        url: `/api/records/${id}/access/request`,
        headers: { ...(await t.user()).headers, accept: 'application/vnd.inveniordm.v1+json' },
        body: {},
      });
      expect(vnd.statusCode, vnd.body).toBe(200);
      expect(vnd.json().type).toBe('user-access-request');
    });

    it('is refused to whoever already reaches the files: grantees, link holders, admins', async () => {
      const id = await publishedRecord();
      const grantee = await t.user();
      const given = await call(owner, 'POST', `/api/records/${id}/access/grants`, {
        grants: [{ subject: { type: 'user', id: String(grantee.id) }, permission: 'view' }],
      });
      expect(given.statusCode, given.body).toBe(201);
      expectError(await ask(grantee, id), 403, 'PERMISSION_DENIED', HAS_ACCESS);
      const link = await call(owner, 'POST', `/api/records/${id}/access/links`, {
        permission: 'view',
      });
      const query = `?token=${link.json().token as string}`;
      const holder = await call(undefined, 'POST', `/api/records/${id}/access/request${query}`, {
        email: 'holder@example.org',
        full_name: 'Holder',
      });
      expectError(holder, 403, 'PERMISSION_DENIED', HAS_ACCESS);
      const admin = await t.user(undefined, { admin: true });
      expectError(await ask(admin, id), 403, 'PERMISSION_DENIED', HAS_ACCESS);
    });

    it('of one reader asking in parallel makes exactly one request', async () => {
      const id = await publishedRecord();
      const reader = await t.user();
      const answers = await Promise.all(Array.from({ length: 6 }, () => ask(reader, id)));
      expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
      for (const a of answers.filter((r) => r.statusCode !== 200))
        expectError(a, 400, 'VALIDATION_FAILED', DUPLICATE);
      const count = await t.services.database.db
        .selectFrom('requests')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('topicRecordId', '=', id)
        .executeTakeFirstOrThrow();
      expect(Number(count.n)).toBe(1);
    });

    it("reaches the record's manage grantees, who decide it as the owner; other grantees not", async () => {
      const id = await publishedRecord();
      const [manager, viewer, reader] = [await t.user(), await t.user(), await t.user()];
      const given = await call(owner, 'POST', `/api/records/${id}/access/grants`, {
        grants: [
          { subject: { type: 'user', id: String(manager.id) }, permission: 'manage' },
          { subject: { type: 'user', id: String(viewer.id) }, permission: 'view' },
        ],
      });
      expect(given.statusCode, given.body).toBe(201);
      const request = (await ask(reader, id, { message: 'Please' })).json();
      const ids = async (caller: Caller, url: string): Promise<string[]> =>
        (await call(caller, 'GET', url))
          .json<{ hits: { hits: Array<{ id: string }> } }>()
          .hits.hits.map((h) => h.id);
      const count = async (caller: Caller): Promise<number> =>
        (await call(caller, 'GET', '/api/user/requests/count')).json<{ awaiting: number }>()
          .awaiting;
      for (const url of ['/api/user/requests?is_open=true', '/api/requests?is_open=true']) {
        expect(await ids(manager, url)).toEqual([request.id]);
        expect(await ids(viewer, url)).toEqual([]);
      }
      expect(await count(manager)).toBe(1);
      expect(await count(viewer)).toBe(0);
      const read = await call(manager, 'GET', `/api/requests/${request.id}`);
      expect(read.statusCode, read.body).toBe(200);
      expect(Object.keys(read.json().links.actions).sort()).toEqual(['accept', 'decline']);
      const hit = (await call(manager, 'GET', '/api/user/requests?is_open=true')).json().hits
        .hits[0];
      expect(Object.keys(hit.links.actions).sort()).toEqual(['accept', 'decline']);
      for (const path of ['', '/timeline'])
        expectError(
          await call(viewer, 'GET', `/api/requests/${request.id}${path}`),
          403,
          'PERMISSION_DENIED',
          'Permission denied.',
        );
      for (const action of ['accept', 'decline'])
        expectError(
          await call(viewer, 'POST', `/api/requests/${request.id}/actions/${action}`),
          403,
          'PERMISSION_DENIED',
          'Permission denied.',
        );
      const accepted = await call(manager, 'POST', `/api/requests/${request.id}/actions/accept`);
      expect(accepted.statusCode, accepted.body).toBe(200);
      expect((await fileOf(reader, id)).body).toBe('a,b\n1,2\n');
      // Closed, it stays in the manager's list of everything, and waits for no one.
      expect(await ids(manager, '/api/user/requests')).toEqual([request.id]);
      expect(await count(manager)).toBe(0);

      // A manage grant that ran out decides nothing any more, and lists nothing.
      const second = (await ask(await t.user(), id)).json();
      await t.services.database.db
        .updateTable('recordGrants')
        .set({ expiresAt: new Date().toISOString().slice(0, 10) })
        .where('userId', '=', manager.id)
        .execute();
      expect(await ids(manager, '/api/user/requests?is_open=true')).toEqual([]);
      expect(await count(manager)).toBe(0);
      expect(
        (await call(manager, 'POST', `/api/requests/${second.id}/actions/decline`)).statusCode,
      ).toBe(403);
    });

    it('accepted for some days gives a grant that ends then; a grant run out gives nothing', async () => {
      const id = await publishedRecord();
      const reader = await t.user();
      const request = (await ask(reader, id)).json();
      const accepted = await call(owner, 'POST', `/api/requests/${request.id}/actions/accept`, {
        payload: { secret_link_expiration: 5 },
      });
      expect(accepted.statusCode, accepted.body).toBe(200);
      const day = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10);
      const grants = (await call(owner, 'GET', `/api/records/${id}/access/users`)).json();
      expect(grants.hits.hits).toEqual([
        {
          subject: { type: 'user', id: String(reader.id) },
          permission: 'view',
          origin: `request:${request.id}`,
          expires_at: day,
        },
      ]);
      expect((await fileOf(reader, id)).body).toBe('a,b\n1,2\n');
      const shared = async (): Promise<number> =>
        (await call(reader, 'GET', '/api/user/records?shared_with_me=true')).json<{
          hits: { total: number };
        }>().hits.total;
      expect(await shared()).toBe(1);

      // The day comes: the grant gives nothing, shares nothing, and the reader may ask again.
      await t.services.database.db
        .updateTable('recordGrants')
        .set({ expiresAt: new Date().toISOString().slice(0, 10) })
        .where('userId', '=', reader.id)
        .execute();
      expectError(await fileOf(reader, id), 403, 'PERMISSION_DENIED', 'Permission denied.');
      expect(await shared()).toBe(0);
      const again = await ask(reader, id);
      expect(again.statusCode, again.body).toBe(200);
      // Accepted without a number of days, as InvenioRDM: the renewed grant has no end.
      const renewed = await call(owner, 'POST', `/api/requests/${again.json().id}/actions/accept`);
      expect(renewed.statusCode, renewed.body).toBe(200);
      const after = (await call(owner, 'GET', `/api/records/${id}/access/users`)).json();
      expect(after.hits.hits).toEqual([
        {
          subject: { type: 'user', id: String(reader.id) },
          permission: 'view',
          origin: `request:${again.json().id}`,
        },
      ]);
      expect((await fileOf(reader, id)).body).toBe('a,b\n1,2\n');
    });

    it('may be cancelled by the reader or declined, and asked again after', async () => {
      const id = await publishedRecord();
      const reader = await t.user();
      const first = (await ask(reader, id)).json();
      expect(
        (await call(reader, 'POST', `/api/requests/${first.id}/actions/cancel`)).statusCode,
      ).toBe(200);
      const second = (await ask(reader, id)).json();
      const declined = await call(owner, 'POST', `/api/requests/${second.id}/actions/decline`);
      expect(declined.json().status).toBe('declined');
      expectError(await fileOf(reader, id), 403, 'PERMISSION_DENIED', 'Permission denied.');
      expect((await ask(reader, id)).statusCode).toBe(200);
    });
  });

  describe("a guest's request", () => {
    it('is made once the guest confirms their address; accepted, a link is mailed to them', async () => {
      const id = await publishedRecord();
      const guest = `guest-${Date.now()}@example.org`;
      const asked = await ask(undefined, id, {
        message: 'Please',
        email: guest,
        full_name: 'Ada Guest',
        consent_to_share_personal_data: 'true',
      });
      expect(asked.statusCode, asked.body).toBe(200);
      expect(asked.json()).toEqual({ message: SENT });
      // Nothing reaches the owner until the address is confirmed.
      expect(
        (await call(owner, 'GET', `/api/records/${id}/requests`)).json().hits?.total ?? 0,
      ).toBe(0);
      const token = await tokenMailed(guest, /\/access-requests\/verify\?token=([^\s]+)/);
      // Only the token's hash is kept.
      const stored = await t.services.database.db
        .selectFrom('accessRequestTokens')
        .selectAll()
        .execute();
      expect(JSON.stringify(stored)).not.toContain(token);

      const verified = await call(undefined, 'POST', '/api/access-requests/verify', { token });
      expect(verified.statusCode, verified.body).toBe(200);
      const request = verified.json();
      // The owner's inbox lists it (a request of no account is nobody's own).
      const inbox = (await call(owner, 'GET', '/api/user/requests?is_open=true')).json();
      expect(inbox.hits.hits.map((h: { id: string }) => h.id)).toContain(request.id);
      expect(request).toMatchObject({
        type: 'guest-access-request',
        status: 'submitted',
        created_by: { email: guest },
        receiver: { user: String(owner.id) },
        topic: { record: id },
      });
      expectError(
        await call(undefined, 'POST', '/api/access-requests/verify', { token }),
        400,
        'VALIDATION_FAILED',
        BAD_TOKEN,
      );
      const timeline = (await call(owner, 'GET', `/api/requests/${request.id}/timeline`)).json();
      expect(timeline.hits.hits[0].payload.content).toBe(
        `<p>Ada Guest &lt;${guest}&gt;</p><p>Please</p>`,
      );
      // A second request of the same address while this one is open.
      expectError(
        await ask(undefined, id, { email: guest, full_name: 'Ada' }),
        400,
        'VALIDATION_FAILED',
        DUPLICATE,
      );

      const accepted = await call(owner, 'POST', `/api/requests/${request.id}/actions/accept`, {
        payload: { secret_link_expiration: '3' },
      });
      expect(accepted.statusCode, accepted.body).toBe(200);
      const link = await tokenMailed(guest, new RegExp(`/records/${id}\\?token=([^\\s]+)`));
      expect((await fileOf(undefined, id, `?token=${encodeURIComponent(link)}`)).body).toBe(
        'a,b\n1,2\n',
      );
      const links = (await call(owner, 'GET', `/api/records/${id}/access/links`)).json();
      const day = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
      expect(links.hits.hits).toMatchObject([{ permission: 'view', expires_at: day }]);
      const mails = await mailsTo(guest);
      expect(mails.map((m) => m.subject)).toEqual([
        `Confirm your request for access to “${PUBLISHABLE_METADATA.title}”`,
        `Your request for access to “${PUBLISHABLE_METADATA.title}” was accepted`,
      ]);
    });

    it('in German for a German guest, declined, tells them so', async () => {
      const id = await publishedRecord();
      const guest = `gast-${Date.now()}@example.org`;
      const asked = await t.request({
        method: 'POST',
        url: `/api/records/${id}/access/request`,
        headers: { 'accept-language': 'de' },
        body: { email: guest, full_name: 'Gast' },
      });
      expect(asked.statusCode, asked.body).toBe(200);
      const token = await tokenMailed(guest, /\/access-requests\/verify\?token=([^\s]+)/);
      const request = (
        await call(undefined, 'POST', '/api/access-requests/verify', { token })
      ).json();
      await call(owner, 'POST', `/api/requests/${request.id}/actions/decline`);
      const mails = await mailsTo(guest);
      expect(mails.map((m) => m.subject)).toEqual([
        `Bestätigen Sie Ihre Zugangsanfrage für „${PUBLISHABLE_METADATA.title}“`,
        `Ihre Zugangsanfrage für „${PUBLISHABLE_METADATA.title}“ wurde abgelehnt`,
      ]);
    });

    it('refuses what the contract refuses, and parallel confirmations make one request', async () => {
      const id = await publishedRecord();
      expectValidationFailed(await ask(undefined, id, { message: 'hi' }), [
        { field: 'email', messages: ['Missing data for required field.'] },
        { field: 'full_name', messages: ['Missing data for required field.'] },
      ]);
      expectValidationFailed(
        await ask(undefined, id, { email: 'not-an-address', full_name: 'X' }),
        [{ field: 'email', messages: ['Not a valid email address.'] }],
      );
      const off = await publishedRecord(undefined, { allow_user_requests: true });
      expectError(
        await ask(undefined, off, { email: 'a@example.org', full_name: 'A' }),
        403,
        'PERMISSION_DENIED',
        GUESTS_OFF,
      );
      const open = await publishedRecord({ record: 'public', files: 'public' });
      expectError(
        await ask(undefined, open, { email: 'a@example.org', full_name: 'A' }),
        403,
        'PERMISSION_DENIED',
        HAS_ACCESS,
      );
      expectError(
        await call(undefined, 'POST', '/api/access-requests/verify', { token: 'nope' }),
        400,
        'VALIDATION_FAILED',
        BAD_TOKEN,
      );
      expectValidationFailed(await call(undefined, 'POST', '/api/access-requests/verify', {}), [
        { field: 'token', messages: ['Missing data for required field.'] },
      ]);

      const guest = `twice-${Date.now()}@example.org`;
      await ask(undefined, id, { email: guest, full_name: 'Twice' });
      const token = await tokenMailed(guest, /\/access-requests\/verify\?token=([^\s]+)/);
      const answers = await Promise.all(
        Array.from({ length: 5 }, () =>
          call(undefined, 'POST', '/api/access-requests/verify', { token }),
        ),
      );
      expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
      for (const a of answers.filter((r) => r.statusCode !== 200))
        expectError(a, 400, 'VALIDATION_FAILED', BAD_TOKEN);
      // Two confirmation links of one address, followed in parallel: one request.
      const other = `both-${Date.now()}@example.org`;
      await ask(undefined, id, { email: other, full_name: 'Both' });
      const a = await tokenMailed(other, /\/access-requests\/verify\?token=([^\s]+)/);
      await ask(undefined, id, { email: other, full_name: 'Both' });
      const b = await tokenMailed(other, /\/access-requests\/verify\?token=([^\s]+)/);
      const both = await Promise.all(
        [a, b].map((token) => call(undefined, 'POST', '/api/access-requests/verify', { token })),
      );
      expect(both.map((r) => r.statusCode).sort()).toEqual([200, 400]);
      expectError(
        both.find((r) => r.statusCode === 400)!,
        400,
        'VALIDATION_FAILED',
        DUPLICATE,
      );
    });
  });
});
