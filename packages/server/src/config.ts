import { z } from 'zod';
import path from 'node:path';

const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(5000),
  HOST: z.string().min(1).default('127.0.0.1'),
  CAIRN_DATA_DIR: z.string().min(1).default('./data'),
  CAIRN_SITE_URL: z.url({ protocol: /^https?$/ }).optional(),
  CAIRN_SITE_NAME: z.string().min(1).default('Cairn'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL (leave unset for SQLite)')
    .optional(),
  CAIRN_DOI_PREFIX: z
    .string()
    .regex(/^10\.\d{4,9}$/, 'must look like 10.1234')
    .default('10.5072'),
  CAIRN_DOI_REQUIRED: booleanFlag.default(false),
  CAIRN_DATACITE_URL: z.url({ protocol: /^https?$/ }).optional(),
  CAIRN_DATACITE_USERNAME: z.string().min(1).optional(),
  CAIRN_DATACITE_PASSWORD: z.string().min(1).optional(),
  CAIRN_RESTRICTION_GRACE_DAYS: z.coerce.number().int().min(0).default(30),
  CAIRN_ALLOW_RESTRICTION_AFTER_GRACE: booleanFlag.default(false),
  CAIRN_BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(10 * 1024 * 1024),
  CAIRN_SESSION_DAYS: z.coerce.number().int().min(1).default(14),
  CAIRN_SWEEP_INTERVAL_SECONDS: z.coerce.number().int().min(0).default(60),
  CAIRN_LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
    .default('info'),
});

/**
 * Rules between variables. Kept out of the schema because Zod skips an object's refinements once
 * any of its fields failed, and every problem must be reported at once.
 */
function crossFieldProblems(env: NodeJS.ProcessEnv): string[] {
  const datacite = [
    env.CAIRN_DATACITE_URL,
    env.CAIRN_DATACITE_USERNAME,
    env.CAIRN_DATACITE_PASSWORD,
  ].filter((v) => v !== undefined).length;
  return datacite !== 0 && datacite !== 3
    ? [
        'CAIRN_DATACITE_URL: set CAIRN_DATACITE_URL, CAIRN_DATACITE_USERNAME and CAIRN_DATACITE_PASSWORD together',
      ]
    : [];
}

export interface DataCiteConfig {
  readonly url: string;
  readonly username: string;
  readonly password: string;
}

/** The whole server configuration; built once at start-up and frozen. */
export interface Config {
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  readonly siteUrl: string;
  readonly siteName: string;
  readonly database:
    | { readonly kind: 'sqlite'; readonly file: string }
    | { readonly kind: 'postgres'; readonly url: string; readonly schema?: string };
  readonly doi: {
    readonly prefix: string;
    readonly required: boolean;
    readonly datacite?: DataCiteConfig;
  };
  readonly access: {
    readonly restrictionGraceDays: number;
    readonly allowRestrictionAfterGrace: boolean;
  };
  readonly bodyLimitBytes: number;
  readonly sessionDays: number;
  readonly sweepIntervalSeconds: number;
  readonly logLevel: string;
  readonly locales: readonly string[];
  readonly defaultLocale: string;
  /** Folder of the built web app (index.html + assets); undefined serves API only. */
  readonly webDist?: string;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Reads the configuration from environment variables. Reports every problem at once
 * (ConfigError) so an operator fixes them in one go, never one per restart.
 */
export function loadConfig(env: NodeJS.ProcessEnv, overrides: Partial<Config> = {}): Config {
  const parsed = EnvSchema.safeParse(env);
  const problems = [
    ...(parsed.error?.issues.map(
      (issue) => `${issue.path.join('.') || 'environment'}: ${issue.message}`,
    ) ?? []),
    ...crossFieldProblems(env),
  ];
  if (!parsed.success || problems.length > 0) throw new ConfigError(problems);
  const e = parsed.data;
  const dataDir = path.resolve(e.CAIRN_DATA_DIR);
  const siteUrl = (e.CAIRN_SITE_URL ?? `http://127.0.0.1:${e.PORT}`).replace(/\/+$/, '');
  const config: Config = {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    siteUrl,
    siteName: e.CAIRN_SITE_NAME,
    database: e.DATABASE_URL
      ? { kind: 'postgres', url: e.DATABASE_URL }
      : { kind: 'sqlite', file: path.join(dataDir, 'cairn.sqlite') },
    doi: {
      prefix: e.CAIRN_DOI_PREFIX,
      required: e.CAIRN_DOI_REQUIRED,
      ...(e.CAIRN_DATACITE_URL && e.CAIRN_DATACITE_USERNAME && e.CAIRN_DATACITE_PASSWORD
        ? {
            datacite: {
              url: e.CAIRN_DATACITE_URL.replace(/\/+$/, ''),
              username: e.CAIRN_DATACITE_USERNAME,
              password: e.CAIRN_DATACITE_PASSWORD,
            },
          }
        : {}),
    },
    access: {
      restrictionGraceDays: e.CAIRN_RESTRICTION_GRACE_DAYS,
      allowRestrictionAfterGrace: e.CAIRN_ALLOW_RESTRICTION_AFTER_GRACE,
    },
    bodyLimitBytes: e.CAIRN_BODY_LIMIT_BYTES,
    sessionDays: e.CAIRN_SESSION_DAYS,
    sweepIntervalSeconds: e.CAIRN_SWEEP_INTERVAL_SECONDS,
    logLevel: e.CAIRN_LOG_LEVEL,
    locales: ['en', 'de'],
    defaultLocale: 'en',
    ...overrides,
  };
  return Object.freeze(config);
}
