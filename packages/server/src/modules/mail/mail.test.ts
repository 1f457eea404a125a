import net from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ParsedMail } from 'mailparser';
import { createTestApp, type TestApp } from '../../test/app.js';
import {
  addMember,
  createCommunity,
  draftForReview,
  injectApi,
  makeDue,
  requestAs,
  type Method,
} from '../../test/communities.js';
import { ENGINES } from '../../test/databases.js';
import { FilesApi, PUBLISHABLE_METADATA, type Caller } from '../../test/files.js';
import { until } from '../../test/process-harness.js';
import { recipientsOf, startTestSmtp, type TestSmtp } from '../../test/smtp.js';
import { inTransaction } from '../../database/unit-of-work.js';
import { toUser } from '../users/users.service.js';
import { MailSender } from './mail-sender.js';
import { MailOutboxRepository } from './outbox.repository.js';

const SITE = 'https://cairn.test';
/** User input with every character HTML gives a meaning to. */
const TITLE = 'Ice <b>cores</b> & "firn" <script>alert(1)</script>';

describe.each(ENGINES)('e-mail notifications on %s', (engine) => {
  let smtp: TestSmtp;
  let t: TestApp;
  let owner: Caller;
  let manager: Caller;
  let curator: Caller;
  let quiet: Caller;
  let reader: Caller;
  let depositor: Caller;
  let admin: Caller;
  let community: string;

  const req = (method: Method, url: string, caller?: Caller, body?: object) =>
    requestAs(t, method, url, caller, body);

  /** What arrived at the SMTP server while `action` ran and the sender then sent. */
  async function arrivals(action: () => Promise<unknown>): Promise<ParsedMail[]> {
    await t.services.mail.idle();
    const before = smtp.received.length;
    await action();
    await t.services.mail.idle();
    return smtp.received.slice(before);
  }

  const to = (mails: ParsedMail[]) => mails.flatMap(recipientsOf).sort();
  const outbox = () => t.services.database.db.selectFrom('mailOutbox').selectAll().execute();

  const reviewRequest = (title = TITLE) =>
    draftForReview(injectApi(t), depositor.headers, community, title);

  async function submitted(title = TITLE) {
    const made = await reviewRequest(title);
    const res = await req(
      'POST',
      `/api/records/${made.draft}/draft/actions/submit-review`,
      depositor,
      {
        payload: { content: '<p>Please <em>look</em> &amp; tell</p>', format: 'html' },
      },
    );
    expect(res.statusCode, res.body).toBe(202);
    return made;
  }

  const setLocale = async (caller: Caller, locale: string) =>
    expect((await req('PUT', '/api/user/preferences', caller, { locale })).statusCode).toBe(200);

  beforeAll(async () => {
    smtp = await startTestSmtp();
    t = await createTestApp(engine, {
      CAIRN_SMTP_URL: smtp.url,
      CAIRN_MAIL_FROM: '"Cairn test" <cairn@cairn.test>',
      CAIRN_MAIL_RETRY_SECONDS: '0',
    });
    [owner, manager, curator, quiet, reader, depositor] = [
      await t.user(),
      await t.user(),
      await t.user(),
      await t.user(),
      await t.user(),
      await t.user(),
    ];
    admin = await t.user(undefined, { admin: true });
    await setLocale(owner, 'de');
    await setLocale(manager, 'en');
    community = await createCommunity(t, owner, 'glaciology', { review_policy: 'closed' });
    await addMember(t, owner, community, manager, 'manager');
    await addMember(t, owner, community, curator, 'curator');
    await addMember(t, owner, community, quiet, 'curator');
    await addMember(t, owner, community, reader, 'reader');
    const off = await req('PUT', '/api/user/preferences', quiet, { email_notifications: false });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toEqual({ locale: null, email_notifications: false });
  });
  afterAll(async () => {
    await t.close();
    await smtp.close();
  });
  beforeEach(() => {
    smtp.refusing = false;
  });

  it('tells the curators, managers and owners of a submission, each alone and in their language', async () => {
    let request = '';
    const mails = await arrivals(async () => ({ request } = await submitted()));
    expect(to(mails)).toEqual([curator.email, manager.email, owner.email].sort());
    for (const mail of mails) {
      // One recipient a message: no one learns another's address.
      expect(recipientsOf(mail)).toHaveLength(1);
      expect(mail.from?.text).toBe('"Cairn test" <cairn@cairn.test>');
      expect(mail.text).toContain(`${SITE}/me/requests/${request}`);
      expect(mail.html).toContain(`href="${SITE}/me/requests/${request}"`);
      expect(mail.text).toContain('> Please look & tell');
    }
    const german = mails.find((m) => recipientsOf(m)[0] === owner.email)!;
    expect(german.subject).toBe(`Neue Einreichung bei glaciology: ${TITLE}`);
    expect(german.text).toContain(`hat „${TITLE}“ zur Prüfung bei glaciology eingereicht.`);
    expect(german.text).toContain('Zur Anfrage: ');
    const english = mails.find((m) => recipientsOf(m)[0] === manager.email)!;
    expect(english.subject).toBe(`New submission to glaciology: ${TITLE}`);
    expect(english.text).toContain(`submitted “${TITLE}” to glaciology for review.`);
    // The title is text in the HTML part: escaped, never markup.
    expect(english.html).not.toContain('<script>');
    expect(english.html).not.toContain('<b>cores');
    expect(english.html).toContain('Ice &#60;b&#62;cores&#60;/b&#62; &#38; &#34;firn&#34;');
    expect(await outbox()).toEqual([]);
  });

  it('tells an invited person in their language, and the managers of a request to join', async () => {
    const invitee = await t.user();
    await setLocale(invitee, 'de');
    const invited = await arrivals(async () => {
      const res = await req('POST', `/api/communities/${community}/invitations`, manager, {
        members: [{ type: 'user', id: String(invitee.id) }],
        // A reader: the tests below count the curators who hear of submissions.
        role: 'reader',
        message: 'Welcome aboard',
      });
      expect(res.statusCode, res.body).toBe(204);
    });
    expect(to(invited)).toEqual([invitee.email]);
    const request = /\/me\/requests\/([0-9a-f-]{36})/.exec(invited[0]!.text ?? '')![1]!;
    // The manager who invited hears that the invitation was taken.
    const joined = await arrivals(async () => {
      const res = await req('POST', `/api/requests/${request}/actions/accept`, invitee);
      expect(res.statusCode, res.body).toBe(200);
    });
    expect(to(joined)).toEqual([manager.email]);
    expect(joined[0]!.text).toContain('accepted your invitation to join glaciology.');
    expect(invited[0]!.subject).toBe('Einladung in die Community glaciology');
    expect(invited[0]!.text).toContain('> Welcome aboard');
    expect(invited[0]!.text).toContain(`${SITE}/me/requests/`);

    const asker = await t.user();
    // Curators do not decide who joins: only the owner and the manager hear of it.
    const asked = await arrivals(async () => {
      const res = await req('POST', `/api/communities/${community}/membership-requests`, asker, {
        message: 'I drill cores too.',
      });
      expect(res.statusCode, res.body).toBe(201);
    });
    expect(to(asked)).toEqual([manager.email, owner.email].sort());
    expect(asked.find((m) => recipientsOf(m)[0] === manager.email)!.subject).toBe(
      'New request to join glaciology',
    );
  });

  it('tells the other participants of a comment, not its author', async () => {
    const { request } = await submitted();
    const comment = (caller: Caller, content: string) =>
      arrivals(async () => {
        const res = await req('POST', `/api/requests/${request}/comments`, caller, {
          payload: { content, format: 'html' },
        });
        expect(res.statusCode, res.body).toBe(201);
      });
    const fromCurator = await comment(
      curator,
      '<p>Which <b>core</b>? <img src=x onerror=alert(1)></p>',
    );
    expect(to(fromCurator)).toEqual([depositor.email, manager.email, owner.email].sort());
    const mail = fromCurator.find((m) => recipientsOf(m)[0] === depositor.email)!;
    expect(mail.subject).toBe(`New comment on “${TITLE}”`);
    expect(mail.text).toContain('> Which core?');
    expect(mail.html).toMatch(/<blockquote>Which core\?\s*<\/blockquote>/);
    expect(mail.html).not.toContain('onerror');
    const fromDepositor = await comment(depositor, 'The deeper one.');
    expect(to(fromDepositor)).toEqual([curator.email, manager.email, owner.email].sort());
    expect(fromDepositor.find((m) => recipientsOf(m)[0] === owner.email)!.subject).toBe(
      `Neuer Kommentar zu „${TITLE}“`,
    );
  });

  it('tells the creator of a request being written about nothing of the community', async () => {
    const { request } = await reviewRequest();
    const mails = await arrivals(() =>
      req('POST', `/api/requests/${request}/comments`, depositor, {
        payload: { content: 'A note to myself', format: 'html' },
      }),
    );
    expect(mails).toEqual([]);
  });

  it('tells the creator of an accept, a decline and an expiry, and no one of their own cancel', async () => {
    await setLocale(depositor, 'de');
    const act = (request: string, action: string, caller: Caller) =>
      arrivals(async () => {
        const res = await req('POST', `/api/requests/${request}/actions/${action}`, caller, {
          payload: { content: `<p>${action}: fine</p>`, format: 'html' },
        });
        expect(res.statusCode, res.body).toBe(200);
      });
    const accepted = await act((await submitted()).request, 'accept', curator);
    expect(to(accepted)).toEqual([depositor.email]);
    expect(accepted[0]!.subject).toBe(`Ihre Anfrage „${TITLE}“ wurde angenommen`);
    expect(accepted[0]!.text).toContain('> accept: fine');

    const declined = await act((await submitted()).request, 'decline', manager);
    expect(to(declined)).toEqual([depositor.email]);
    expect(declined[0]!.subject).toBe(`Ihre Anfrage „${TITLE}“ wurde abgelehnt`);

    expect(await act((await submitted()).request, 'cancel', depositor)).toEqual([]);
    const byAdmin = await act((await submitted()).request, 'cancel', admin);
    expect(to(byAdmin)).toEqual([depositor.email]);
    expect(byAdmin[0]!.subject).toBe(`Ihre Anfrage „${TITLE}“ wurde zurückgezogen`);

    await setLocale(depositor, 'en');
    const { request } = await submitted();
    await makeDue(t, request);
    const expired = await arrivals(() => t.services.requests.expireDue());
    expect(to(expired)).toEqual([depositor.email]);
    expect(expired[0]!.subject).toBe(`Your request “${TITLE}” expired`);
    expect(expired[0]!.text).toContain('expired without a decision');
  });

  it('sends nothing for an inclusion that needed no one (included at once)', async () => {
    // The owner curates the community, whose review policy is closed: only a direct inclusion
    // by an administrator is accepted at once.
    const draft = await req('POST', '/api/records', admin, {
      metadata: PUBLISHABLE_METADATA,
      files: { enabled: false },
      access: { record: 'public', files: 'public' },
    });
    const id = draft.json().id as string;
    expect((await req('POST', `/api/records/${id}/draft/actions/publish`, admin)).statusCode).toBe(
      202,
    );
    const mails = await arrivals(async () => {
      const res = await req('POST', `/api/records/${id}/communities`, admin, {
        communities: [{ id: community }],
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().processed[0].request.status).toBe('accepted');
    });
    expect(mails).toEqual([]);
    // Asked for review, the inclusion is a request the curators hear of.
    const reviewed = await arrivals(async () => {
      const record = await req('POST', '/api/records', depositor, {
        metadata: PUBLISHABLE_METADATA,
        files: { enabled: false },
        access: { record: 'public', files: 'public' },
      });
      const rid = record.json().id as string;
      await req('POST', `/api/records/${rid}/draft/actions/publish`, depositor);
      const res = await req('POST', `/api/records/${rid}/communities`, depositor, {
        communities: [{ id: community }],
      });
      expect(res.statusCode, res.body).toBe(200);
    });
    expect(to(reviewed)).toEqual([curator.email, manager.email, owner.email].sort());
    expect(reviewed.find((m) => recipientsOf(m)[0] === manager.email)!.subject).toBe(
      'New inclusion request for glaciology: Sediment cores',
    );
  });

  it('queues nothing for an action that is rolled back', async () => {
    const { request } = await submitted();
    const row = (await t.services.requests.get(request))!;
    const user = toUser((await t.services.users.findByEmail(curator.email))!);
    const mails = await arrivals(async () => {
      await expect(
        inTransaction(t.services.database.db, async () => {
          await t.services.requests.run(row, 'decline', user);
          await t.services.requests.comments.comment(user, request, () => ({
            payload: { content: 'declined', format: 'html' },
          }));
          throw new Error('something after it failed');
        }),
      ).rejects.toThrow('something after it failed');
    });
    expect(mails).toEqual([]);
    expect(await outbox()).toEqual([]);
    expect((await t.services.requests.get(request))!.status).toBe('submitted');
  });

  it('sends one decision of parallel accepts and declines, and every parallel comment once', async () => {
    const { request } = await submitted();
    const mails = await arrivals(() =>
      Promise.all(
        [curator, manager, owner, curator, manager, owner].map((caller, i) =>
          req('POST', `/api/requests/${request}/actions/${i % 2 ? 'accept' : 'decline'}`, caller),
        ),
      ),
    );
    expect(to(mails)).toEqual([depositor.email]);
    const comments = await arrivals(() =>
      Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          req('POST', `/api/requests/${request}/comments`, depositor, {
            payload: { content: `comment ${i}`, format: 'html' },
          }),
        ),
      ),
    );
    expect(comments).toHaveLength(8 * 3);
    expect(new Set(comments.map((m) => `${recipientsOf(m)[0]} ${m.text}`)).size).toBe(8 * 3);
  });

  it('keeps a refused message and delivers it once when the server takes it again', async () => {
    smtp.refusing = true;
    const refused = await arrivals(() => submitted());
    expect(refused).toEqual([]);
    const queued = await outbox();
    expect(queued).toHaveLength(3);
    expect(queued.every((m) => m.attempts === 1 && /451/.test(m.lastError ?? ''))).toBe(true);
    smtp.refusing = false;
    const delivered = await arrivals(() => t.services.mail.drain());
    expect(to(delivered)).toEqual([curator.email, manager.email, owner.email].sort());
    expect(await outbox()).toEqual([]);
    expect(await arrivals(() => t.services.mail.drain())).toEqual([]);
  });

  it('tells a record owner of access requests, and the person or guest of the decision, with their link', async () => {
    const files = new FilesApi(t, owner);
    const id = (
      await files.createDraft({
        metadata: { ...PUBLISHABLE_METADATA, title: TITLE },
        access: { record: 'public', files: 'restricted' },
      })
    ).id;
    await files.upload(id, 'data.csv', 'a\n');
    await files.publish(id);
    const settings = { allow_user_requests: true, allow_guest_requests: true };
    expect((await req('PUT', `/api/records/${id}/access`, owner, settings)).statusCode).toBe(200);

    // A reader's request reaches the owner (in German), the decision the reader.
    let request = '';
    const asked = await arrivals(async () => {
      const res = await req('POST', `/api/records/${id}/access/request`, depositor, {
        message: 'For my thesis',
      });
      expect(res.statusCode, res.body).toBe(200);
      request = res.json().id as string;
    });
    expect(to(asked)).toEqual([owner.email]);
    expect(asked[0]!.subject).toBe(`Neue Zugangsanfrage für „${TITLE}“`);
    expect(asked[0]!.text).toContain('bittet um Zugang zu den Dateien');
    expect(asked[0]!.text).toContain(`${SITE}/me/requests/${request}`);
    const accepted = await arrivals(() =>
      req('POST', `/api/requests/${request}/actions/accept`, owner),
    );
    expect(to(accepted)).toEqual([depositor.email]);
    expect(accepted[0]!.subject).toBe(`Your request “${TITLE}” was accepted`);
    expect(accepted[0]!.text).toContain(`accepted your request “${TITLE}”.`);

    // A guest confirms their address through the first message; the second carries their link.
    const guest = 'guest@example.org';
    const verify = await arrivals(async () => {
      const res = await req('POST', `/api/records/${id}/access/request`, undefined, {
        email: guest,
        full_name: '<i>Ada</i> Guest',
        message: 'Please',
      });
      expect(res.statusCode, res.body).toBe(200);
    });
    expect(to(verify)).toEqual([guest]);
    expect(verify[0]!.subject).toBe(`Confirm your request for access to “${TITLE}”`);
    expect(verify[0]!.html).not.toContain('<i>Ada');
    expect(verify[0]!.html).not.toContain('<script>');
    const token = /verify\?token=(\S+)/.exec(verify[0]!.text ?? '')![1]!;
    expect(verify[0]!.html).toContain(`href="${SITE}/access-requests/verify?token=${token}"`);
    const told = await arrivals(async () => {
      const res = await req('POST', '/api/access-requests/verify', undefined, { token });
      expect(res.statusCode, res.body).toBe(200);
      request = res.json().id as string;
    });
    expect(to(told)).toEqual([owner.email]);
    expect(told[0]!.text).toContain(`Ein Gast bittet um Zugang zu den Dateien von „${TITLE}“.`);
    const linked = await arrivals(() =>
      req('POST', `/api/requests/${request}/actions/accept`, owner, {
        payload: { secret_link_expiration: 2 },
      }),
    );
    expect(to(linked)).toEqual([guest]);
    expect(linked[0]!.subject).toBe(`Your request for access to “${TITLE}” was accepted`);
    const link = new RegExp(`${SITE}/records/${id}\\?token=(\\S+)`).exec(linked[0]!.text ?? '');
    expect(link).not.toBeNull();
    const until = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    expect(linked[0]!.text).toContain(`The link works until ${until}.`);
    expect(await outbox()).toEqual([]);
  });

  it('keeps messages while the server is down and delivers each once when it is back', async () => {
    await smtp.stop();
    try {
      expect(await arrivals(() => submitted())).toEqual([]);
      expect((await outbox()).map((m) => m.attempts)).toEqual([1, 1, 1]);
      // Still down: another attempt, still kept.
      await t.services.mail.drain();
      expect((await outbox()).map((m) => m.attempts)).toEqual([2, 2, 2]);
    } finally {
      await smtp.start();
    }
    const delivered = await arrivals(() => t.services.mail.drain());
    expect(to(delivered)).toEqual([curator.email, manager.email, owner.email].sort());
    expect(await outbox()).toEqual([]);
  });

  it('lets two senders on one database deliver each message exactly once', async () => {
    const repo = new MailOutboxRepository(t.services.database.db, t.services.database.engine);
    const senders = [0, 1, 2].map(() => {
      const sender = new MailSender(repo, t.config.mail, SITE);
      sender.start({ info: () => {}, warn: () => {}, error: () => {} });
      return sender;
    });
    t.services.mail.stop();
    try {
      const messages = Array.from({ length: 60 }, (_, i) => ({
        recipient: `person${i}@example.org`,
        subject: `Message ${i}`,
        text: `Message ${i}`,
        html: `<p>Message ${i}</p>`,
      }));
      await repo.enqueue(messages, new Date().toISOString());
      const before = smtp.received.length;
      const counts = await Promise.all(senders.map((s) => s.drain()));
      expect(counts.reduce((a, b) => a + b, 0)).toBe(60);
      const subjects = smtp.received.slice(before).map((m) => m.subject);
      expect(subjects.sort()).toEqual(messages.map((m) => m.subject).sort());
      expect(await outbox()).toEqual([]);
    } finally {
      t.services.mail.start({ info: () => {}, warn: () => {}, error: () => {} });
    }
  });

  it('queues nothing for people who turned e-mail off, and again for them once back on', async () => {
    const res = await req('GET', '/api/user/preferences', quiet);
    expect(res.json()).toEqual({ locale: null, email_notifications: false });
    await req('PUT', '/api/user/preferences', quiet, { email_notifications: true });
    try {
      const mails = await arrivals(() => submitted());
      expect(to(mails)).toContain(quiet.email);
    } finally {
      await req('PUT', '/api/user/preferences', quiet, { email_notifications: false });
    }
  });

  /** A draft of `depositor`'s titled TITLE; published first when `published`. */
  async function sharedRecord(published: boolean): Promise<string> {
    const made = await req('POST', '/api/records', depositor, {
      metadata: { ...PUBLISHABLE_METADATA, title: TITLE },
      files: { enabled: false },
    });
    expect(made.statusCode, made.body).toBe(201);
    const id = made.json<{ id: string }>().id;
    if (published) {
      const res = await req('POST', `/api/records/${id}/draft/actions/publish`, depositor);
      expect(res.statusCode, res.body).toBe(202);
    }
    return id;
  }

  const grantTo = (caller: Caller, permission: string, extra: object = {}) => ({
    subject: { type: 'user', id: String(caller.id) },
    permission,
    ...extra,
  });

  it('tells each new grantee with notify, in their language, with the message and a link to the record or its editor', async () => {
    const [editor, viewer, silent] = [await t.user(), await t.user(), await t.user()];
    await setLocale(editor, 'de');
    const draft = await sharedRecord(false);
    const mails = await arrivals(async () => {
      const res = await req('POST', `/api/records/${draft}/access/grants`, depositor, {
        grants: [
          grantTo(editor, 'edit'),
          grantTo(viewer, 'preview'),
          // A grant's own switch wins over the body's.
          grantTo(silent, 'view', { notify: false }),
        ],
        message: 'Please check the <b>units</b>\nbefore Friday',
        notify: true,
      });
      expect(res.statusCode, res.body).toBe(201);
    });
    expect(to(mails)).toEqual([editor.email, viewer.email].sort());
    const sharer = (await t.services.users.findByEmail(depositor.email))!.name;
    const german = mails.find((m) => recipientsOf(m)[0] === editor.email)!;
    expect(german.subject).toBe(`${sharer} hat „${TITLE}“ mit Ihnen geteilt`);
    expect(german.text).toContain('Sie können seinen Entwurf lesen und bearbeiten.');
    // Never published: the editor is where an edit grant leads.
    expect(german.text).toContain(`Zum Datensatz: ${SITE}/uploads/${draft}`);
    expect(german.text).toContain('> Please check the <b>units</b>\n> before Friday');
    expect(german.html).toContain('Please check the &#60;b&#62;units&#60;/b&#62;<br>before Friday');
    expect(german.html).not.toContain('<script>');
    const english = mails.find((m) => recipientsOf(m)[0] === viewer.email)!;
    expect(english.subject).toBe(`${sharer} shared “${TITLE}” with you`);
    expect(english.text).toContain('you may read the record, its files and its draft.');
    expect(english.text).toContain(`Open the record: ${SITE}/records/${draft}?preview=1`);
    expect(english.html).toContain(`href="${SITE}/records/${draft}?preview=1"`);

    // Once published, the landing page is the way in for every permission.
    const record = await sharedRecord(true);
    const later = await arrivals(async () => {
      const res = await req('POST', `/api/records/${record}/access/grants`, depositor, {
        grants: [grantTo(editor, 'manage', { message: 'Yours too', notify: true })],
      });
      expect(res.statusCode, res.body).toBe(201);
    });
    expect(to(later)).toEqual([editor.email]);
    expect(later[0]!.text).toContain(`Zum Datensatz: ${SITE}/records/${record}\n`);
    expect(later[0]!.text).toContain('> Yours too');
    expect(await outbox()).toEqual([]);
  });

  it('sends nothing for grants without notify or with notify false, nor for a refused request', async () => {
    const record = await sharedRecord(true);
    const [a, b, c] = [await t.user(), await t.user(), await t.user()];
    const mails = await arrivals(async () => {
      for (const body of [
        { grants: [grantTo(a, 'view')], message: 'hello' },
        { grants: [grantTo(b, 'edit')], notify: false },
        // The second grant is refused, so the first is not given and no one hears of it.
        { grants: [grantTo(c, 'view'), grantTo(depositor, 'view')], notify: true },
      ]) {
        const res = await req('POST', `/api/records/${record}/access/grants`, depositor, body);
        expect(res.statusCode, res.body).toBe(body.grants.length === 2 ? 400 : 201);
      }
    });
    expect(mails).toEqual([]);
    expect(await outbox()).toEqual([]);
  });

  it('tells a person once of parallel grants to them, the one that was given', async () => {
    const record = await sharedRecord(true);
    const grantee = await t.user();
    const mails = await arrivals(async () => {
      const answers = await Promise.all(
        ['view', 'preview', 'edit', 'manage'].map((permission) =>
          req('POST', `/api/records/${record}/access/grants`, depositor, {
            grants: [grantTo(grantee, permission)],
            notify: true,
          }),
        ),
      );
      expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 400, 400, 400]);
    });
    expect(to(mails)).toEqual([grantee.email]);
    const given = await req('GET', `/api/records/${record}/access/users/${grantee.id}`, depositor);
    const permission = given.json<{ permission: string }>().permission;
    expect(mails[0]!.text).toContain(
      {
        view: 'you may read the record and its files.',
        preview: 'you may read the record, its files and its draft.',
        edit: 'you may read and edit its draft.',
        manage: 'you may read, edit, publish and share it.',
      }[permission],
    );
  });
});

describe.each(ENGINES)('e-mail without an SMTP server on %s', (engine) => {
  it('writes each message to the log instead, and keeps none', async () => {
    const lines: string[] = [];
    const t = await createTestApp(
      engine,
      {},
      {},
      { logger: { level: 'info', stream: { write: (line) => lines.push(line) } } },
    );
    try {
      const [owner, depositor] = [await t.user(), await t.user()];
      const community = await createCommunity(t, owner, 'logged', { review_policy: 'closed' });
      const draft = await requestAs(t, 'POST', '/api/records', depositor, {
        metadata: PUBLISHABLE_METADATA,
        files: { enabled: false },
        access: { record: 'public', files: 'public' },
      });
      const id = draft.json().id as string;
      await requestAs(t, 'PUT', `/api/records/${id}/draft/review`, depositor, {
        type: 'community-submission',
        receiver: { community },
      });
      const res = await requestAs(
        t,
        'POST',
        `/api/records/${id}/draft/actions/submit-review`,
        depositor,
      );
      expect(res.statusCode, res.body).toBe(202);
      await t.services.mail.idle();
      const logged = lines
        .map((line) => JSON.parse(line) as { msg: string; mail?: { to: string; subject: string } })
        .filter((line) => line.mail);
      expect(logged).toEqual([
        expect.objectContaining({
          msg: 'e-mail not sent (no CAIRN_SMTP_URL)',
          mail: expect.objectContaining({
            to: owner.email,
            subject: 'New submission to logged: Sediment cores',
          }),
        }),
      ]);
      expect(await t.services.database.db.selectFrom('mailOutbox').selectAll().execute()).toEqual(
        [],
      );
    } finally {
      await t.close();
    }
  });
  it("logs a guest's confirmation and link mails without their tokens", async () => {
    const lines: string[] = [];
    const t = await createTestApp(
      engine,
      {},
      {},
      { logger: { level: 'info', stream: { write: (line) => lines.push(line) } } },
    );
    try {
      const owner = await t.user();
      const files = new FilesApi(t, owner);
      const { id } = await files.createDraft({
        metadata: PUBLISHABLE_METADATA,
        access: { record: 'public', files: 'restricted' },
      });
      await files.upload(id, 'data.csv', 'a\n');
      await files.publish(id);
      await requestAs(t, 'PUT', `/api/records/${id}/access`, owner, { allow_guest_requests: true });
      const asked = await requestAs(t, 'POST', `/api/records/${id}/access/request`, undefined, {
        email: 'guest@example.org',
        full_name: 'Guest',
      });
      expect(asked.statusCode, asked.body).toBe(200);
      await t.services.mail.idle();
      const [pending] = await t.services.database.db
        .selectFrom('accessRequestTokens')
        .selectAll()
        .execute();
      expect(pending).toBeDefined();
      const mailed = lines.filter((line) => line.includes('access-requests/verify'));
      expect(mailed).toHaveLength(1);
      expect(mailed[0]).toContain('access-requests/verify?token=[redacted]');
      // No token of the length Cairn makes appears anywhere in the log.
      expect(lines.join('\n')).not.toMatch(/token=[A-Za-z0-9_-]{40,}/);
    } finally {
      await t.close();
    }
  });
});

describe.each(ENGINES)('e-mail and a mail server that never answers on %s', (engine) => {
  it('answers the action at once, the message waiting in the outbox', async () => {
    // Takes connections and never says a word: a send waits for its greeting.
    const silent = net.createServer(() => {});
    const sockets = new Set<net.Socket>();
    silent.on('connection', (socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as net.AddressInfo;
    const t = await createTestApp(engine, {
      CAIRN_SMTP_URL: `smtp://127.0.0.1:${port}`,
      CAIRN_MAIL_LEASE_SECONDS: '60',
    });
    try {
      const [owner, depositor] = [await t.user(), await t.user()];
      const community = await createCommunity(t, owner, 'silent', { review_policy: 'closed' });
      const { draft } = await draftForReview(injectApi(t), depositor.headers, community);
      const res = await requestAs(
        t,
        'POST',
        `/api/records/${draft}/draft/actions/submit-review`,
        depositor,
      );
      expect(res.statusCode, res.body).toBe(202);
      // Answered while the sender still waits for the server: the message is claimed, not sent.
      await until('the sender is connected', () => Promise.resolve(sockets.size > 0));
      const [row] = await t.services.database.db.selectFrom('mailOutbox').selectAll().execute();
      expect(row).toMatchObject({ recipient: owner.email, attempts: 1, lastError: null });
      expect(row!.leaseToken).not.toBeNull();
    } finally {
      // Hanging up ends the send at once (a failure, retried later), so the app can close.
      for (const socket of sockets) socket.destroy();
      await t.close();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});
