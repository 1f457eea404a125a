import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../packages/server/src/app.js';
import { loadConfig } from '../../packages/server/src/config.js';
import { openDatabase } from '../../packages/server/src/database/database.js';
import { createServices, type Services } from '../../packages/server/src/services.js';
import type { User } from '../../packages/server/src/modules/users/users.service.js';

export const WEB_DIST = fileURLToPath(new URL('../../packages/web/dist', import.meta.url));

export interface TestServer {
  /** The site URL, without a trailing slash (`http://127.0.0.1:PORT`). */
  url: string;
  services: Services;
  /** Stops the server, closes the database and removes the data folder. */
  close(): Promise<void>;
}

export interface TestAccount {
  user: User;
  email: string;
  password: string;
  name: string;
}

/** A port nobody listens on right now; the OS may still hand it out again before we bind it. */
async function findFreePort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', resolve);
  });
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('No TCP port assigned.');
  return address.port;
}

function isAddressInUse(error: unknown): boolean {
  return error instanceof Error && (error as NodeJS.ErrnoException).code === 'EADDRINUSE';
}

/**
 * The real Cairn app (API and the built web pages) on a fresh SQLite database in a temporary
 * folder, listening on 127.0.0.1, configured further by `env`. The port is chosen before the config is built because every
 * link the server sends (`self_html`, the bootstrap's site URL) is made from `siteUrl`.
 */
export async function startServer(env: Record<string, string> = {}): Promise<TestServer> {
  // Another process can take the probed port between probe and listen; a new port then helps.
  for (let attempt = 1; ; attempt++) {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'cairn-e2e-'));
    const port = await findFreePort();
    const config = loadConfig(
      {
        PORT: String(port),
        HOST: '127.0.0.1',
        CAIRN_SITE_URL: `http://127.0.0.1:${port}`,
        CAIRN_DATA_DIR: dataDir,
        CAIRN_LOG_LEVEL: 'silent',
        ...env,
      },
      { webDist: WEB_DIST },
    );
    const database = openDatabase(config.database);
    let app: FastifyInstance | undefined;
    let services: Services | undefined;
    const close = async () => {
      await app?.close();
      // Publishing may have started a DOI registration; it must finish before the database closes.
      await services?.doi.idle();
      await database.close();
      await fs.rm(dataDir, { recursive: true, force: true });
    };
    try {
      services = await createServices(config, database);
      app = await buildApp(services, { logger: false });
      await app.listen({ port, host: config.host });
      return { url: config.siteUrl, services, close };
    } catch (error) {
      await close();
      if (!isAddressInUse(error) || attempt >= 3) throw error;
    }
  }
}

let accountCounter = 0;

/**
 * Creates an account directly through the users service, for tests whose subject is not signing
 * up. Each call makes a new address so tests in one file never collide.
 */
export async function createAccount(
  services: Services,
  overrides: { name?: string; password?: string } = {},
): Promise<TestAccount> {
  accountCounter += 1;
  const email = `person${accountCounter}-${process.pid}@cairn.test`;
  const name = overrides.name ?? `Test Person ${accountCounter}`;
  const password = overrides.password ?? 'correct horse battery staple';
  const user = await services.users.createUser({ email, password, name });
  return { user, email, password, name };
}
