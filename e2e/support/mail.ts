import { startTestSmtp, type TestSmtp } from '../../packages/server/src/test/smtp.js';
import { startServer } from './server.js';
import { test } from './test.js';

/**
 * Makes the file's server send its e-mail to a real SMTP server in this process, started with
 * it; the answer reads that SMTP server (its `received` messages) once the fixture ran.
 */
export function serverWithMail(): () => TestSmtp {
  let smtp: TestSmtp | undefined;
  // eslint-disable-next-line no-empty-pattern -- Vitest reads a fixture's dependencies from this pattern.
  test.override('server', { scope: 'file' }, async ({}, { onCleanup }) => {
    const mail = await startTestSmtp();
    smtp = mail;
    const server = await startServer({ CAIRN_SMTP_URL: mail.url });
    onCleanup(async () => {
      await server.close();
      await mail.close();
    });
    return server;
  });
  return () => {
    if (!smtp) throw new Error('The mailing server has not started yet.');
    return smtp;
  };
}
