import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer, { type Transporter } from 'nodemailer';
import type { MailConfig } from '../../config.js';
import { crashPoint } from '../../lib/crash-points.js';
import { backoffDelay } from '../../lib/backoff.js';
import type { MailOutboxRepository, OutboxRow } from './outbox.repository.js';

/** Messages claimed at once; each is sent only while its lease still covers a whole send. */
const BATCH = 10;
/** After this many attempts a message is given up (its row stays, `failed_at` set). */
export const MAX_MAIL_ATTEMPTS = 12;
/** The longest wait between two attempts. */
const MAX_BACKOFF_MS = 6 * 3600_000;

type Log = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;

/**
 * Sends the outbox (`MailOutboxRepository`) the way DOI registration drains its queue: a drain
 * is kicked after each action that queued mail commits, and the periodic sweep drains again, so
 * a message that failed is retried with exponential back-off, and one queued before a restart
 * is sent after it. The request that queued a message never waits for the SMTP server.
 *
 * A drain claims messages with a lease (see the repository), so two app servers on one
 * database never send one message twice, and a message held by a process that died is sent by
 * another once its lease has run out. Only a crash between the SMTP server's acceptance and the
 * row's deletion can send a message twice; its Message-ID is the same each time
 * (`<outbox-{id}@host>`), so the receiving side can tell.
 *
 * Without `CAIRN_SMTP_URL` messages are written to the log instead, so `npm start` needs no
 * mail server.
 */
export class MailSender {
  private readonly transport?: Transporter;
  /** How long one send may take before its socket gives up: well inside the lease. */
  private readonly sendBudgetMs: number;
  private readonly messageIdHost: string;
  private log?: Log;
  private running?: Promise<number>;
  private again = false;

  constructor(
    private readonly repo: MailOutboxRepository,
    private readonly config: MailConfig,
    siteUrl: string,
  ) {
    this.sendBudgetMs = Math.min(60_000, (config.leaseSeconds * 1000) / 3);
    this.messageIdHost = new URL(siteUrl).hostname;
    this.transport = config.smtpUrl
      ? nodemailer.createTransport({
          url: config.smtpUrl,
          connectionTimeout: this.sendBudgetMs,
          greetingTimeout: this.sendBudgetMs,
          socketTimeout: this.sendBudgetMs,
        } as Parameters<typeof nodemailer.createTransport>[0])
      : undefined;
  }

  /**
   * Lets kicks send from now on, logging to `log`. The server calls it; commands that only
   * queue (the demo loader) leave their messages to the server.
   */
  start(log: Log): void {
    this.log = log;
  }

  /** No new drain starts; one in flight finishes (see `idle`). */
  stop(): void {
    this.log = undefined;
  }

  /** Starts a drain unless one runs, then one more after it: new mail may have come meanwhile. */
  kick(): void {
    if (!this.log) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain()
      .catch((error: unknown) => {
        this.log?.error({ err: error }, 'sending e-mail failed');
        return 0;
      })
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** Waits for the drains in flight (tests and shutdown). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /**
   * Sends every message that is due; returns how many went. Stops at the first batch with a
   * failure: the server is likely down, and the failed ones are due again only after their delay.
   */
  async drain(): Promise<number> {
    // Not started (a command that only queues), or stopping: the messages wait in the outbox.
    const log = this.log;
    if (!log) return 0;
    let sent = 0;
    // Stopping (shutdown) ends the drain after the batch in hand; the rest waits in the outbox.
    while (this.log) {
      const token = crypto.randomUUID();
      const now = Date.now();
      const leaseUntil = now + this.config.leaseSeconds * 1000;
      const rows = await this.repo.claim(
        new Date(now).toISOString(),
        new Date(leaseUntil).toISOString(),
        token,
        BATCH,
      );
      if (rows.length === 0) return sent;
      crashPoint('mail:claimed');
      let failed = false;
      for (const row of rows) {
        // A message whose lease would run out during the send is left to the next claim.
        if (Date.now() + this.sendBudgetMs > leaseUntil) break;
        try {
          await this.send(row, log);
        } catch (error) {
          failed = true;
          await this.retryLater(row, token, error);
          continue;
        }
        if (await this.repo.delivered(row.id, token)) sent++;
        else this.log?.warn({ mail: row.id }, 'e-mail sent after its lease ran out');
      }
      if (failed) return sent;
    }
    return sent;
  }

  private async send(row: OutboxRow, log: Log): Promise<void> {
    if (!this.transport) {
      log.info(
        { mail: { to: row.recipient, subject: row.subject, text: row.textBody } },
        'e-mail not sent (no CAIRN_SMTP_URL)',
      );
      return;
    }
    await this.transport.sendMail({
      from: this.config.from,
      to: row.recipient,
      subject: row.subject,
      text: row.textBody,
      html: row.htmlBody,
      messageId: `<outbox-${row.id}@${this.messageIdHost}>`,
    });
  }

  /** Records why the message did not go and when to try again, backing off; or gives up. */
  private async retryLater(row: OutboxRow, token: string, error: unknown): Promise<void> {
    const reason = String(error instanceof Error ? error.message : error).slice(0, 2000);
    const giveUp = row.attempts >= MAX_MAIL_ATTEMPTS;
    const delay = backoffDelay(this.config.retrySeconds * 1000, row.attempts, MAX_BACKOFF_MS);
    await this.repo.release(row.id, token, {
      nextAttemptAt: new Date(Date.now() + delay).toISOString(),
      lastError: reason,
      failedAt: giveUp ? new Date().toISOString() : null,
    });
    this.log?.[giveUp ? 'error' : 'warn'](
      { mail: row.id, attempts: row.attempts, err: reason },
      giveUp ? 'e-mail given up' : 'e-mail not sent; will retry',
    );
  }
}
