import { PostgresAdapter, sql, type Kysely, type Migration } from 'kysely';

/**
 * The e-mail outbox: a message is a row written in the transaction of the action that causes it
 * (a rolled-back action leaves none, a committed one cannot be lost), and the sender deletes it
 * once the SMTP server took it. `lease_until`/`lease_token` mark a row claimed by one sender, so
 * two app servers never send the same row; a lease that ran out (its process died) frees it.
 * `failed_at` is set when the attempts are used up: the row stays for the operator to read.
 *
 * And each person's choice whether to receive e-mail at all (on unless they turn it off).
 */
export const mailOutboxMigration: Migration = {
  async up(db: Kysely<unknown>) {
    const pg = db.getExecutor().adapter instanceof PostgresAdapter;
    await db.schema
      .createTable('mail_outbox')
      .addColumn('id', pg ? 'serial' : 'integer', (c) =>
        pg ? c.primaryKey() : c.primaryKey().autoIncrement(),
      )
      .addColumn('recipient', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('text_body', 'text', (c) => c.notNull())
      .addColumn('html_body', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('next_attempt_at', 'text', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('lease_until', 'text')
      .addColumn('lease_token', 'text')
      .addColumn('last_error', 'text')
      .addColumn('failed_at', 'text')
      .execute();
    // The sender's claim reads the rows due, oldest first; given-up rows are not in the index.
    await db.schema
      .createIndex('mail_outbox_due_idx')
      .on('mail_outbox')
      .columns(['next_attempt_at', 'id'])
      .where(sql.ref('failed_at'), 'is', null)
      .execute();
    await db.schema
      .alterTable('users')
      .addColumn('email_notifications', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
  },
};
