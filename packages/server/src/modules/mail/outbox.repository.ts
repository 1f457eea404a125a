import type { Selectable } from 'kysely';
import type { Db, Engine } from '../../database/database.js';
import type { MailOutboxTable } from '../../database/schema.js';

/** One message to one person. */
export interface OutgoingMail {
  recipient: string;
  subject: string;
  text: string;
  html: string;
}

export type OutboxRow = Selectable<MailOutboxTable>;

/**
 * The outbox's rows (migration 0024). Writes go through the handle every repository shares, so
 * `enqueue` inside an action's transaction is part of it (`database/unit-of-work.ts`).
 */
export class MailOutboxRepository {
  constructor(
    private readonly db: Db,
    private readonly engine: Engine,
  ) {}

  async enqueue(messages: readonly OutgoingMail[], now: string): Promise<void> {
    if (messages.length === 0) return;
    await this.db
      .insertInto('mailOutbox')
      .values(
        messages.map((m) => ({
          recipient: m.recipient,
          subject: m.subject,
          textBody: m.text,
          htmlBody: m.html,
          createdAt: now,
          nextAttemptAt: now,
        })),
      )
      .execute();
  }

  /**
   * Claims up to `limit` messages that are due and not held by a live lease, for `token` until
   * `leaseUntil`, counting the attempt. On PostgreSQL a row another sender is claiming right now
   * is skipped (`FOR UPDATE SKIP LOCKED`) rather than waited for; on SQLite the statement runs
   * alone under the database's single writer. Either way no two senders hold one row.
   */
  async claim(now: string, leaseUntil: string, token: string, limit: number): Promise<OutboxRow[]> {
    const due = this.db
      .selectFrom('mailOutbox')
      .select('id')
      .where('failedAt', 'is', null)
      .where('nextAttemptAt', '<=', now)
      .where((eb) => eb.or([eb('leaseUntil', 'is', null), eb('leaseUntil', '<=', now)]))
      .orderBy('nextAttemptAt')
      .orderBy('id')
      .limit(limit);
    return this.db
      .updateTable('mailOutbox')
      .set((eb) => ({ leaseUntil, leaseToken: token, attempts: eb('attempts', '+', 1) }))
      .where('id', 'in', this.engine === 'postgres' ? due.forUpdate().skipLocked() : due)
      .returningAll()
      .execute()
      .then((rows) => rows.sort((a, b) => a.id - b.id));
  }

  /** The SMTP server took the message: it is gone. False when the lease was lost meanwhile. */
  async delivered(id: number, token: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('mailOutbox')
      .where('id', '=', id)
      .where('leaseToken', '=', token)
      .executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }

  /** Gives a claimed message back: to be tried at `nextAttemptAt`, or never (`failedAt`). */
  async release(
    id: number,
    token: string,
    set: { nextAttemptAt: string; lastError: string; failedAt: string | null },
  ): Promise<void> {
    await this.db
      .updateTable('mailOutbox')
      .set({ ...set, leaseUntil: null, leaseToken: null })
      .where('id', '=', id)
      .where('leaseToken', '=', token)
      .execute();
  }
}
