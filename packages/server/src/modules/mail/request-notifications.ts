import type { Db } from '../../database/database.js';
import { afterCommit } from '../../database/unit-of-work.js';
import { CURATOR_ROLES, MANAGER_ROLES } from '../communities/communities.roles.js';
import { receivingCommunity, type RequestRow } from '../requests/requests.repository.js';
import type { MailSender } from './mail-sender.js';
import { requestMail, type RequestEvent } from './messages.js';
import type { MailOutboxRepository } from './outbox.repository.js';

/** Someone a message may go to. */
interface Recipient {
  id: number;
  email: string;
  locale: string | null;
}

/** Who acted: a person (their id and display name) or the system. */
export type NotifiedActor = { id: number; name: string } | 'system';

/**
 * Who hears of what happens to a request, by e-mail: a submission reaches those who decide it
 * (the receiving community's curators, managers and owners; an invitation its person; a request
 * to join the managers and owners); a comment the other participants (the creator and
 * those same people); a decision or expiry the creator. Never the person who acted, never
 * someone who turned e-mail off, one message per person (no one sees another's address).
 *
 * Called inside the action's transaction: the messages are queued with it, so a rolled-back
 * action sends nothing and a committed one cannot lose them; sending starts after the commit.
 */
export class RequestNotifications {
  constructor(
    private readonly db: Db,
    private readonly outbox: MailOutboxRepository,
    private readonly sender: MailSender,
    private readonly site: { url: string; name: string },
  ) {}

  /** A request reached a new status through `action` (submit, accept, decline, cancel, expire). */
  async changed(
    row: RequestRow,
    action: string,
    actor: NotifiedActor,
    comment?: string,
  ): Promise<void> {
    const event = (
      {
        submit: 'submitted',
        accept: 'accepted',
        decline: 'declined',
        cancel: 'cancelled',
        expire: 'expired',
      } as Record<string, RequestEvent | undefined>
    )[action];
    if (!event) return;
    const recipients = event === 'submitted' ? await this.receivers(row) : await this.creator(row);
    await this.queue(row, event, actor, recipients, comment);
  }

  /** Someone commented: the creator and the community's curators hear of it, once submitted. */
  async commented(row: RequestRow, actor: NotifiedActor, comment: string): Promise<void> {
    // A request still being written is its creator's alone; the community does not see it yet.
    const recipients = [
      ...(await this.creator(row)),
      ...(row.status === 'created' ? [] : await this.receivers(row)),
    ];
    await this.queue(row, 'commented', actor, recipients, comment);
  }

  private async queue(
    row: RequestRow,
    event: RequestEvent,
    actor: NotifiedActor,
    recipients: Recipient[],
    comment: string | undefined,
  ): Promise<void> {
    const actorId = actor === 'system' ? undefined : actor.id;
    const seen = new Set<number>();
    const to = recipients.filter((r) => {
      if (r.id === actorId || seen.has(r.id)) return false;
      seen.add(r.id);
      return true;
    });
    if (to.length === 0) return;
    const community =
      row.receiverCommunityId === null
        ? undefined
        : await this.db
            .selectFrom('communities')
            .select('title')
            .where('id', '=', row.receiverCommunityId)
            .executeTakeFirst();
    const message = {
      event,
      requestType: row.type,
      title: row.title,
      community: community?.title ?? '',
      ...(actor === 'system' ? {} : { actor: actor.name }),
      ...(comment ? { comment } : {}),
      link: `${this.site.url}/me/requests/${row.id}`,
      siteName: this.site.name,
      settingsLink: `${this.site.url}/account/tokens`,
    };
    await this.outbox.enqueue(
      to.map((r) => requestMail(r.email, r.locale, message)),
      new Date().toISOString(),
    );
    await afterCommit(() => this.sender.kick());
  }

  /** The request's creator, if they have an account (a guest's request has none). */
  private async creator(row: RequestRow): Promise<Recipient[]> {
    return row.createdBy === null ? [] : this.users([row.createdBy]);
  }

  /** The people who receive e-mail among these users. */
  private users(ids: number[]): Promise<Recipient[]> {
    return this.db
      .selectFrom('users')
      .select(['id', 'email', 'locale'])
      .where('id', 'in', ids)
      .where('emailNotifications', '=', 1)
      .execute();
  }

  /**
   * Who decides the request: the invited person an invitation, the community's managers and
   * owners a request to join, its curators, managers and owners the others.
   */
  private receivers(row: RequestRow): Promise<Recipient[]> {
    if (row.receiverUserId !== null) return this.users([row.receiverUserId]);
    const roles = row.type === 'community-membership-request' ? MANAGER_ROLES : CURATOR_ROLES;
    return this.members(receivingCommunity(row), roles);
  }

  /** The community's members of `roles` who receive e-mail. */
  private members(communityId: string, roles: ReadonlySet<string>): Promise<Recipient[]> {
    return this.db
      .selectFrom('communityMembers as m')
      .innerJoin('users as u', 'u.id', 'm.userId')
      .select(['u.id', 'u.email', 'u.locale'])
      .where('m.communityId', '=', communityId)
      .where('m.role', 'in', [...roles])
      .where('u.emailNotifications', '=', 1)
      .orderBy('u.id')
      .execute();
  }
}
