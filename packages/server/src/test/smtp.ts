import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';

/** The credentials the test server takes (any other is refused). */
const USER = 'cairn';
const PASSWORD = 'smtp-secret';

/**
 * A real SMTP server in the test process (`smtp-server`), collecting what arrives parsed
 * (`mailparser`): what Cairn sends is read as a mail client would read it.
 */
export interface TestSmtp {
  /** `smtp://user:pass@127.0.0.1:port`, for CAIRN_SMTP_URL. */
  url: string;
  /** Every message accepted so far, in order of arrival. */
  received: ParsedMail[];
  /** While true, every message is refused with a temporary error (451) after its data. */
  refusing: boolean;
  /** Closes the listener: connections are refused until `start`. */
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
  close(): Promise<void>;
}

export async function startTestSmtp(): Promise<TestSmtp> {
  // The first start takes any free port; a start after `stop` takes the same one again.
  let port = 0;
  const received: ParsedMail[] = [];
  let server: SMTPServer | undefined;
  const smtp: TestSmtp = {
    get url() {
      return `smtp://${USER}:${PASSWORD}@127.0.0.1:${port}`;
    },
    received,
    refusing: false,
    async start() {
      server = new SMTPServer({
        // Plain text on loopback: no certificate to make, and AUTH is still checked.
        disabledCommands: ['STARTTLS'],
        allowInsecureAuth: true,
        logger: false,
        onAuth(auth, _session, callback) {
          if (auth.username === USER && auth.password === PASSWORD)
            callback(null, { user: auth.username });
          else callback(new Error('Invalid username or password'));
        },
        onData(stream, _session, callback) {
          simpleParser(stream).then(
            (mail) => {
              if (smtp.refusing) {
                const refusal = new Error('Try again later') as Error & { responseCode: number };
                refusal.responseCode = 451;
                callback(refusal);
                return;
              }
              received.push(mail);
              callback();
            },
            (error: Error) => callback(error),
          );
        },
      });
      await new Promise<void>((resolve, reject) => {
        server!.once('error', reject);
        server!.listen(port, '127.0.0.1', () => resolve());
      });
      port = (server.server.address() as AddressInfo).port;
    },
    async stop() {
      const closing = server;
      server = undefined;
      if (closing) await new Promise<void>((resolve) => closing.close(() => resolve()));
    },
    close: () => smtp.stop(),
  };
  await smtp.start();
  return smtp;
}

/** The addresses a message went to (To and Cc), as the recipient's client shows them. */
export function recipientsOf(mail: ParsedMail): string[] {
  const lists = [mail.to, mail.cc].flatMap((field) =>
    field === undefined ? [] : Array.isArray(field) ? field : [field],
  );
  return lists.flatMap((list) => list.value.map((a) => a.address ?? ''));
}
