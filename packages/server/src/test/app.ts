import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import os from 'node:os';
import path from 'node:path';
import { buildApp, type AppOptions } from '../app.js';
import { responseContract } from '../lib/openapi.js';
import { loadConfig, type Config } from '../config.js';
import type { DatabaseObserver, Engine } from '../database/database.js';
import { createServices, type Services } from '../services.js';
import { createTestDatabase } from './databases.js';

export interface TestApp {
  app: FastifyInstance;
  services: Services;
  config: Config;
  close(): Promise<void>;
  /** Creates a user and a personal access token; returns `Authorization` headers for it. */
  user(
    email?: string,
    options?: { admin?: boolean },
  ): Promise<{ id: number; email: string; headers: Record<string, string> }>;
  /** inject() with JSON encoding of `body` and the response body parsed. */
  request(
    options: InjectOptions & { body?: unknown },
  ): Promise<
    LightMyRequestResponse & { json: () => Record<string, unknown> & { [k: string]: any } }
  >;
}

let counter = 0;

export interface TestAppOptions {
  /** Runs after the app is built and before it is ready: the only time routes can be added. */
  beforeReady?: (app: FastifyInstance) => void;
  /** Fastify's logger; tests run silent unless they assert on what is logged. */
  logger?: AppOptions['logger'];
  /**
   * Throttle with the limits `env` configures, Cairn's defaults otherwise. Without it the test app
   * raises them out of reach: many tests log in, sign up or make tokens from one address.
   */
  configuredRateLimits?: boolean;
  /** Sees every statement the app sends to its database (see `countStatements`). */
  observer?: DatabaseObserver;
  /** PostgreSQL: the search reads through a second, read-only pool, as `DATABASE_READ_URL` makes. */
  readReplica?: boolean;
}

/** Limits no test reaches by accident; the throttling tests opt out of them. */
const RAISED_RATE_LIMITS: Record<string, string> = {
  CAIRN_RATE_LIMIT_LOGIN_PER_ACCOUNT: '1000000',
  CAIRN_RATE_LIMIT_LOGIN_PER_ADDRESS: '1000000',
  CAIRN_RATE_LIMIT_SIGNUP_PER_ACCOUNT: '1000000',
  CAIRN_RATE_LIMIT_SIGNUP_PER_ADDRESS: '1000000',
  CAIRN_RATE_LIMIT_TOKENS_PER_ACCOUNT: '1000000',
  CAIRN_RATE_LIMIT_TOKENS_PER_ADDRESS: '1000000',
};

/**
 * Every JSON answer of an API route is parsed with the schema its route documents for that status
 * (`documentedResponse`), so that each route test is also a test of the contract the web app and
 * other clients read. An answer that does not match fails the request with the schema's issues.
 */
function holdAnswersToTheirContract(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    // The API's own JSON, plain or vnd; exports (CSL, DataCite, JSON-LD…) follow other schemas.
    const type = String(reply.getHeader('content-type'));
    if (
      typeof payload !== 'string' ||
      !/^application\/(json|vnd\.inveniordm\.v1\+json)\b/.test(type)
    ) {
      return payload;
    }
    const contract = responseContract(
      request.routeOptions.schema?.response as Record<string, unknown> | undefined,
      reply.statusCode,
    );
    if (!contract) return payload;
    const parsed = contract.safeParse(JSON.parse(payload));
    if (parsed.success) return payload;
    const where = `${request.method} ${request.routeOptions.url ?? request.url} ${reply.statusCode}`;
    console.error(`The answer of ${where} breaks its documented schema:`, parsed.error.issues);
    throw new Error(`The answer of ${where} breaks its documented schema`);
  });
}

/** The real app on a fresh database of `engine`, without the web pages. */
export async function createTestApp(
  engine: Engine,
  env: Record<string, string> = {},
  overrides: Partial<Config> = {},
  options: TestAppOptions = {},
): Promise<TestApp> {
  const database = await createTestDatabase(engine, options.observer, {
    readReplica: options.readReplica,
  });
  const config = loadConfig(
    {
      CAIRN_DATA_DIR: path.join(os.tmpdir(), 'cairn-test'),
      CAIRN_LOG_LEVEL: 'silent',
      CAIRN_SITE_URL: 'https://cairn.test',
      ...(options.configuredRateLimits ? {} : RAISED_RATE_LIMITS),
      ...env,
    },
    { database: database.config, webDist: undefined, ...overrides },
  );
  const services = await createServices(config, database.handle);
  const app = await buildApp(services, {
    logger: options.logger ?? false,
    beforeRoutes: holdAnswersToTheirContract,
  });
  options.beforeReady?.(app);
  await app.ready();
  return {
    app,
    services,
    config,
    async close() {
      await app.close();
      await services.doi.idle();
      services.mail.stop();
      await services.mail.idle();
      await database.drop();
    },
    async user(email, options = {}) {
      const address = email ?? `user${++counter}-${Date.now()}@example.org`;
      const user = await services.users.createUser({
        email: address,
        password: 'correct horse battery',
        isAdmin: options.admin ?? false,
      });
      const { token } = await services.users.createToken(user.id, 'test');
      return { id: user.id, email: address, headers: { authorization: `Bearer ${token}` } };
    },
    async request(options) {
      const { body, ...rest } = options;
      const injected = await app.inject({
        ...rest,
        ...(body === undefined
          ? {}
          : { payload: typeof body === 'string' ? body : JSON.stringify(body) }),
        headers: {
          ...(body !== undefined && typeof body !== 'string'
            ? { 'content-type': 'application/json' }
            : {}),
          ...rest.headers,
        },
      });
      return injected;
    },
  };
}
