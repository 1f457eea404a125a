import crypto from 'node:crypto';
import {
  AccessRequestBody,
  AccessRequestVerifyBody,
  AccessSettingsBody,
  type AccessSettings,
  type RecordData,
} from '@cairn/shared';
import { AppError, pidDoesNotExist, validationFailed } from '../../errors.js';
import type { Db } from '../../database/database.js';
import { nowIso } from '../../database/database.js';
import { isUniqueViolation } from '../../database/errors.js';
import { readJson } from '../../database/schema.js';
import { afterCommit, inTransaction } from '../../database/unit-of-work.js';
import { escapeHtml } from '../../lib/html.js';
import { monotonicNow } from '../../lib/monotonic-time.js';
import { parsedBody } from '../../lib/zod-errors.js';
import { constantTimeEqual } from '../../plugins/auth.js';
import type { MailSender } from '../mail/mail-sender.js';
import { guestAccessMail, type GuestAccessEvent } from '../mail/access-mails.js';
import type { MailOutboxRepository } from '../mail/outbox.repository.js';
import type { RecordAccessService } from '../records/records-access.service.js';
import type { ParentData, ParentRow } from '../records/records.rows.js';
import { isOwner, today, type LinkGrant, type RecordStore } from '../records/records.shared.js';
import type { RequestRow } from '../requests/requests.repository.js';
import type {
  ActionOptions,
  RequestAction,
  RequestsService,
  RequestView,
} from '../requests/requests.service.js';
import { hashSecret, type User } from '../users/users.service.js';
import type { AccessRequestRow, AccessRequestsRepository } from './access-requests.repository.js';
import type { GrantsService } from './grants.service.js';
import type { SecretLinksService } from './secret-links.service.js';

export const USER_ACCESS_REQUEST = 'user-access-request';
export const GUEST_ACCESS_REQUEST = 'guest-access-request';

/** How long a guest's confirmation link works, as InvenioRDM's. */
const TOKEN_HOURS = 6;

const DEFAULT_SETTINGS: AccessSettings = {
  allow_user_requests: false,
  allow_guest_requests: false,
  accept_conditions_text: null,
  secret_link_expiration: 0,
};

const HAS_ACCESS = 'You already have access to files of this record.';
const OWN = 'You own this record: there is nothing to request.';
const USERS_OFF = 'This record does not accept access requests from signed-in users.';
const GUESTS_OFF = 'This record does not accept access requests from guests.';
const DUPLICATE = 'The access request is a duplicate: an earlier one is still open.';
const BAD_TOKEN = 'This confirmation link is unknown, was used already, or has expired.';
export const VERIFICATION_SENT = 'Verification link sent out, please check your e-mail inbox';

/** A record's access settings as stored, with InvenioRDM's defaults for what is missing. */
export function accessSettingsOf(parent: ParentRow): AccessSettings {
  const stored = readJson<ParentData>(parent.data).access?.settings ?? {};
  return { ...DEFAULT_SETTINGS, ...stored };
}

/** A person's words as the text of a comment (they are plain text, not HTML). */
function textAsHtml(text: string): string {
  return text
    .split(/\n{2,}/)
    .map((para) => `<p>${escapeHtml(para).replace(/\n/g, '<br>')}</p>`)
    .join('');
}

function titleOf(data: RecordData): string {
  return data.metadata.title || 'Untitled';
}

/**
 * InvenioRDM's access requests: a reader of a record whose files are restricted asks its owner
 * for them. A signed-in person's is a `user-access-request` at once; a guest's becomes a
 * `guest-access-request` once they confirm their address through the link e-mailed to them.
 * The owner, or a `manage` grantee of the record, accepts or declines it in their inbox; accepting gives the person a `view` grant
 * (the grants service) or the guest a `view` secret link by e-mail (the links service). Also
 * the owner's settings of whether anyone may ask, and on what conditions.
 */
export class AccessRequestsService {
  constructor(
    private readonly db: Db,
    private readonly repo: AccessRequestsRepository,
    private readonly store: RecordStore,
    private readonly records: RecordAccessService,
    private readonly requests: RequestsService,
    private readonly grants: GrantsService,
    private readonly links: SecretLinksService,
    private readonly mail: { outbox: MailOutboxRepository; sender: MailSender },
    private readonly site: { url: string; name: string },
  ) {
    for (const type of [USER_ACCESS_REQUEST, GUEST_ACCESS_REQUEST] as const)
      requests.registerHandler(type, {
        onAction: (action, row, _actor, options) => this.onAction(action, row, options),
        serialize: (row, fn) => store.lockedTopic(row.topicRecordId, fn),
        // The record's `manage` grantees decide beside its owner, as co-owners.
        decidedAlsoBy: (user, rows) =>
          repo.managedBy(
            user.id,
            rows.map((r) => r.id),
            today(),
          ),
      });
  }

  /**
   * PUT …/access: the settings replace the parent's (what the body leaves out is back to its
   * default), for whoever manages the record; the record's JSON shows them at once.
   */
  async updateSettings(user: User | undefined, id: string, body: unknown): Promise<void> {
    const input = parsedBody(AccessSettingsBody, body);
    const settings: AccessSettings = {
      allow_user_requests: input.allow_user_requests ?? false,
      allow_guest_requests: input.allow_guest_requests ?? false,
      accept_conditions_text: input.accept_conditions_text?.trim()
        ? input.accept_conditions_text
        : null,
      secret_link_expiration: input.secret_link_expiration ?? 0,
    };
    await this.store.changingManaged(user, id, async (parent) => {
      const data = readJson<ParentData>(parent.data);
      data.access = { ...data.access, settings: { ...settings } };
      await this.store.repo.updateParent(parent.id, JSON.stringify(data), monotonicNow());
    });
  }

  /**
   * The record a person may ask about, and its parent: visible to them (else its 404, 410 or
   * 403), its files closed to them, requests of their kind allowed.
   */
  private async askable(
    user: User | undefined,
    id: string,
    link: LinkGrant | undefined,
    guest: boolean,
  ) {
    const { row, parent } = await this.records.readVisible(user, id, undefined, link);
    const data = readJson<RecordData>(row.data);
    if (user && !user.isAdmin && parent.ownerId === user.id)
      throw new AppError('PERMISSION_DENIED', OWN);
    const closed = data.access.files === 'restricted' || data.access.embargo?.active === true;
    if (!closed || isOwner(user, parent) || (await this.store.allows(user, link, parent, 'view')))
      throw new AppError('PERMISSION_DENIED', HAS_ACCESS);
    const settings = accessSettingsOf(parent);
    if (guest ? !settings.allow_guest_requests : !settings.allow_user_requests)
      throw new AppError('PERMISSION_DENIED', guest ? GUESTS_OFF : USERS_OFF);
    return { row, parent, data };
  }

  /**
   * POST …/access/request. Signed in, with one's own address or none: the request, submitted.
   * Otherwise a guest's: a name and an address are required, and the answer says a link to
   * confirm the address was sent; the request is made when it is followed (`verify`).
   */
  async request(
    user: User | undefined,
    link: LinkGrant | undefined,
    id: string,
    body: unknown,
    locale: string,
  ): Promise<{ view: RequestView } | { message: string }> {
    const input = parsedBody(AccessRequestBody, body);
    const ownAddress =
      user !== undefined &&
      (input.email === undefined || input.email.toLowerCase() === user.email.toLowerCase());
    if (user && ownAddress) return { view: await this.userRequest(user, link, id, input.message) };

    const { row, parent, data } = await this.askable(user, id, link, true);
    const missing = (['email', 'full_name'] as const).filter((f) => !input[f]);
    if (missing.length > 0)
      throw validationFailed(
        missing.map((field) => ({ field, messages: ['Missing data for required field.'] })),
      );
    const email = input.email!.toLowerCase();
    if (await this.repo.openFor(parent.id, { email }))
      throw new AppError('VALIDATION_FAILED', DUPLICATE);
    const token = crypto.randomBytes(32).toString('base64url');
    const now = new Date();
    await inTransaction(this.db, async () => {
      await this.repo.deleteExpiredTokens(now.toISOString());
      await this.repo.insertToken({
        tokenHash: hashSecret(token),
        recordId: row.id,
        email,
        fullName: input.full_name!,
        message: input.message ?? '',
        locale,
        createdAt: now.toISOString(),
        expiresAt: new Date(now.getTime() + TOKEN_HOURS * 3_600_000).toISOString(),
      });
      await this.sendGuest(email, locale, 'verify', {
        title: titleOf(data),
        name: input.full_name!,
        link: `${this.site.url}/access-requests/verify?token=${encodeURIComponent(token)}`,
        hours: TOKEN_HOURS,
      });
    });
    return { message: VERIFICATION_SENT };
  }

  private async userRequest(
    user: User,
    link: LinkGrant | undefined,
    id: string,
    message: string | undefined,
  ): Promise<RequestView> {
    const { row, parent, data } = await this.askable(user, id, link, false);
    if (await this.repo.openFor(parent.id, { userId: user.id }))
      throw new AppError('VALIDATION_FAILED', DUPLICATE);
    return this.open({
      type: USER_ACCESS_REQUEST,
      parent,
      recordId: row.id,
      title: titleOf(data),
      by: user,
      who: { userId: user.id, email: null, fullName: user.name, locale: null },
      comment: message?.trim() ? textAsHtml(message) : undefined,
    });
  }

  /**
   * Makes the request and what it asks for, submitted, in one transaction. Two open ones of the
   * same person for the same record meet the unique index: the later is refused as a duplicate,
   * whatever the timing.
   */
  private async open(input: {
    type: typeof USER_ACCESS_REQUEST | typeof GUEST_ACCESS_REQUEST;
    parent: ParentRow;
    recordId: string;
    title: string;
    by: User | 'system';
    who: Pick<AccessRequestRow, 'userId' | 'email' | 'fullName' | 'locale'>;
    comment: string | undefined;
  }): Promise<RequestView> {
    return inTransaction(this.db, async () => {
      const request = await this.requests.create({
        type: input.type,
        createdBy: input.who.userId,
        ...(input.who.email ? { creatorEmail: input.who.email } : {}),
        communityId: null,
        receiverUserId: input.parent.ownerId,
        topicRecordId: input.recordId,
        title: input.title,
      });
      try {
        await this.repo.insert({
          requestId: request.id,
          parentId: input.parent.id,
          recordId: input.recordId,
          ...input.who,
          isOpen: 1,
          createdAt: request.createdAt,
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw new AppError('VALIDATION_FAILED', DUPLICATE);
        throw error;
      }
      const payload = input.comment
        ? { content: input.comment, format: 'html' as const }
        : undefined;
      return this.requests.run(request, 'submit', input.by, payload);
    });
  }

  /**
   * POST /api/access-requests/verify (Cairn): a guest followed the link e-mailed to them; their
   * request is made, once: the token is used up by the first confirmation.
   */
  async verify(body: unknown): Promise<RequestView> {
    const { token } = parsedBody(AccessRequestVerifyBody, body);
    const tokenHash = hashSecret(token);
    const pending = await this.repo.tokenByHash(tokenHash);
    if (
      !pending ||
      !constantTimeEqual(pending.tokenHash, tokenHash) ||
      pending.expiresAt <= nowIso()
    )
      throw new AppError('VALIDATION_FAILED', BAD_TOKEN);
    const record = await this.records.recordAsSystem(pending.recordId);
    if (!record) throw pidDoesNotExist();
    const data = readJson<RecordData>(record.row.data);
    return inTransaction(this.db, async () => {
      if (!(await this.repo.deleteToken(tokenHash)))
        throw new AppError('VALIDATION_FAILED', BAD_TOKEN);
      if (!accessSettingsOf(record.parent).allow_guest_requests)
        throw new AppError('PERMISSION_DENIED', GUESTS_OFF);
      const intro = `<p>${escapeHtml(pending.fullName)} &lt;${escapeHtml(pending.email)}&gt;</p>`;
      return this.open({
        type: GUEST_ACCESS_REQUEST,
        parent: record.parent,
        recordId: record.row.id,
        title: titleOf(data),
        by: 'system',
        who: {
          userId: null,
          email: pending.email,
          fullName: pending.fullName,
          locale: pending.locale,
        },
        comment: intro + (pending.message.trim() ? textAsHtml(pending.message) : ''),
      });
    });
  }

  /**
   * What a decision does, under the record parent's lock: accepting gives a person a `view`
   * grant, or a guest a `view` link sent to them by e-mail; either lasts the days the decider
   * chose when accepting (a Cairn extension for a person's grant), else for a guest the record's
   * setting and for a person no end, as InvenioRDM. Declining tells a guest so. Every end
   * closes it.
   */
  private async onAction(action: RequestAction, row: RequestRow, options?: ActionOptions) {
    if (action === 'submit') return;
    const asked = await this.repo.byRequest(row.id);
    if (!asked) throw new Error(`request ${row.id} has no access request`);
    const parent = await this.store.parentOf(asked.parentId);
    if (action === 'accept') {
      const days =
        options?.expirationDays ??
        (asked.userId !== null ? 0 : accessSettingsOf(parent).secret_link_expiration);
      const expiresAt =
        days > 0
          ? new Date(Date.parse(today()) + days * 86_400_000).toISOString().slice(0, 10)
          : null;
      if (asked.userId !== null) {
        await this.grants.giveUnlessHeld(
          parent,
          asked.userId,
          'view',
          `request:${row.id}`,
          expiresAt,
        );
      } else {
        const link = await this.links.createFor(parent, {
          permission: 'view',
          description: `Access request #${row.number}: ${asked.fullName} <${asked.email}>`,
          expiresAt,
        });
        await this.sendGuest(asked.email!, asked.locale, 'accepted', {
          title: row.title,
          name: asked.fullName,
          link: `${this.site.url}/records/${asked.recordId}?token=${encodeURIComponent(link.token)}`,
          expiresAt,
        });
      }
    } else if (action === 'decline' && asked.email !== null) {
      await this.sendGuest(asked.email, asked.locale, 'declined', {
        title: row.title,
        name: asked.fullName,
        link: `${this.site.url}/records/${asked.recordId}`,
      });
    }
    await this.repo.close(row.id);
  }

  /** Queues an e-mail to a guest in the caller's transaction; sending starts after the commit. */
  private async sendGuest(
    to: string,
    locale: string | null,
    event: GuestAccessEvent,
    message: Omit<Parameters<typeof guestAccessMail>[3], 'siteName'>,
  ): Promise<void> {
    await this.mail.outbox.enqueue(
      [guestAccessMail(to, locale, event, { ...message, siteName: this.site.name })],
      new Date().toISOString(),
    );
    await afterCommit(() => this.mail.sender.kick());
  }
}
