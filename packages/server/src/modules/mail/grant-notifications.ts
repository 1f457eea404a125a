import type { GrantPermission } from '@cairn/shared';
import type { Db } from '../../database/database.js';
import { afterCommit } from '../../database/unit-of-work.js';
import type { MailSender } from './mail-sender.js';
import { grantMail } from './messages.js';
import type { MailOutboxRepository } from './outbox.repository.js';

/** A grant just given with `notify`, and the words that go with it. */
export interface NotifiedGrant {
  userId: number;
  permission: GrantPermission;
  message?: string;
}

/** The record the grants are on, as the sharer named it. */
export interface GrantedRecord {
  id: string;
  title: string;
  /** Whether `id` is a published record (else only its draft exists). */
  published: boolean;
}

/**
 * Tells new grantees of their grant by e-mail (`notify: true` on InvenioRDM's grants body), in
 * their language, unless they turned e-mail off. Called inside the grant's transaction, as
 * `RequestNotifications` is: a refused grant sends nothing, a given one cannot lose its message.
 */
export class GrantNotifications {
  constructor(
    private readonly db: Db,
    private readonly outbox: MailOutboxRepository,
    private readonly sender: MailSender,
    private readonly site: { url: string; name: string },
  ) {}

  async granted(
    record: GrantedRecord,
    actor: { name: string },
    grants: NotifiedGrant[],
  ): Promise<void> {
    if (grants.length === 0) return;
    const people = await this.db
      .selectFrom('users')
      .select(['id', 'email', 'locale'])
      .where(
        'id',
        'in',
        grants.map((g) => g.userId),
      )
      .where('emailNotifications', '=', 1)
      .execute();
    const byId = new Map(people.map((p) => [p.id, p]));
    const mails = grants.flatMap((grant) => {
      const person = byId.get(grant.userId);
      if (!person) return [];
      // A draft that was never published is reached in its editor by those who may edit it;
      // the others read it on its landing page once they may.
      const editor =
        !record.published && (grant.permission === 'edit' || grant.permission === 'manage');
      const link = editor
        ? `${this.site.url}/uploads/${record.id}`
        : `${this.site.url}/records/${record.id}${record.published || grant.permission === 'view' ? '' : '?preview=1'}`;
      return [
        grantMail(person.email, person.locale, {
          permission: grant.permission,
          title: record.title,
          actor: actor.name,
          ...(grant.message ? { message: grant.message } : {}),
          link,
          siteName: this.site.name,
          settingsLink: `${this.site.url}/account/tokens`,
        }),
      ];
    });
    if (mails.length === 0) return;
    await this.outbox.enqueue(mails, new Date().toISOString());
    await afterCommit(() => this.sender.kick());
  }
}
