import { z } from 'zod';
import {
  CustomFieldsUiSchema,
  DEFAULT_CUSTOM_FIELDS_UI,
  DEFAULT_MAX_FILES,
  DEFAULT_MAX_STORAGE,
  DEFAULT_TRANSFER_TYPE,
  IMPORT_MAX_FILE_BYTES,
  UPLOAD_CONCURRENCY,
  UPLOAD_BATCH_FILES,
  FILES_UPLOAD_BATCH_MAX,
  type CustomFieldUi,
} from '@cairn/shared';
import path from 'node:path';
import {
  OperationsEnv,
  operationsConfig,
  operationsProblems,
  type OperationsConfig,
} from './modules/ops/ops-config.js';
import { CRASH_POINTS } from './lib/crash-points.js';

const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const commaList = z.string().transform((text) =>
  text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean),
);

/** A variable holding JSON, parsed before its own schema checks it. */
const jsonText = z.string().transform((text, context): unknown => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    context.addIssue({ code: 'custom', message: 'must be JSON' });
    return z.NEVER;
  }
});

/**
 * The publish dialog's extra checkboxes (each must be ticked) and text. Duplicate ids would make
 * two answers indistinguishable, so they are refused at start-up.
 */
const PublishModalExtraSchema = z
  .object({
    checkboxes: z.array(z.object({ id: z.string().min(1), label: z.string().min(1) })).default([]),
    text: z.string().default(''),
  })
  .refine(
    (extra) => new Set(extra.checkboxes.map((box) => box.id)).size === extra.checkboxes.length,
    'checkbox ids must be unique',
  );

/** A number of attempts per window; 0 switches the limit off. */
const attemptLimit = z.coerce.number().int().min(0);

/**
 * Fastify's `trustProxy`: `true` trusts every hop, a number that many hops, anything else is a
 * comma-separated list of proxy addresses or CIDR ranges.
 */
const trustProxy = z
  .string()
  .min(1)
  .transform((text): boolean | number | string[] => {
    if (text === 'true' || text === 'false') return text === 'true';
    if (/^\d+$/.test(text)) return Number(text);
    return text
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean);
  });

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(5000),
  HOST: z.string().min(1).default('127.0.0.1'),
  CAIRN_DATA_DIR: z.string().min(1).default('./data'),
  CAIRN_SITE_URL: z.url({ protocol: /^https?$/ }).optional(),
  CAIRN_SITE_NAME: z.string().min(1).default('Cairn'),
  CAIRN_ADMIN_EMAIL: z.email().optional(),
  CAIRN_OAI_PAGE_SIZE: z.coerce.number().int().min(1).max(1000).default(100),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL (leave unset for SQLite)')
    .optional(),
  DATABASE_READ_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL of a read replica of DATABASE_URL')
    .optional(),
  CAIRN_DOI_PREFIX: z
    .string()
    .regex(/^10\.\d{4,9}$/, 'must look like 10.1234')
    .default('10.5072'),
  CAIRN_DOI_REQUIRED: booleanFlag.default(false),
  CAIRN_DATACITE_URL: z.url({ protocol: /^https?$/ }).optional(),
  CAIRN_DATACITE_USERNAME: z.string().min(1).optional(),
  CAIRN_DATACITE_PASSWORD: z.string().min(1).optional(),
  CAIRN_DATACITE_API_URL: z.url({ protocol: /^https?$/ }).default('https://api.datacite.org'),
  CAIRN_CROSSREF_API_URL: z.url({ protocol: /^https?$/ }).default('https://api.crossref.org'),
  CAIRN_IMPORT_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(120).default(10),
  CAIRN_RESTRICTION_GRACE_DAYS: z.coerce.number().int().min(0).default(30),
  CAIRN_ALLOW_RESTRICTION_AFTER_GRACE: booleanFlag.default(false),
  CAIRN_OWNER_DELETION_DAYS: z.coerce.number().int().min(0).default(0),
  CAIRN_BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(10 * 1024 * 1024),
  CAIRN_BODY_IDLE_TIMEOUT_SECONDS: z.coerce.number().min(0).default(30),
  CAIRN_STORAGE: z.enum(['local', 's3']).default('local'),
  CAIRN_S3_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  CAIRN_S3_PUBLIC_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  CAIRN_S3_REGION: z.string().min(1).default('us-east-1'),
  CAIRN_S3_BUCKET: z.string().min(3).optional(),
  CAIRN_S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  CAIRN_S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  CAIRN_S3_FORCE_PATH_STYLE: booleanFlag.default(false),
  CAIRN_FILES_MAX_PER_RECORD: z.coerce.number().int().min(1).default(DEFAULT_MAX_FILES),
  CAIRN_FILES_MAX_BYTES_PER_RECORD: z.coerce.number().int().min(0).default(DEFAULT_MAX_STORAGE),
  CAIRN_FILES_ALLOW_EMPTY: booleanFlag.default(true),
  CAIRN_UPLOAD_PART_URL_SECONDS: z.coerce.number().int().min(60).max(604_800).default(604_800),
  CAIRN_PENDING_UPLOAD_MAX_AGE_HOURS: z.coerce.number().min(0).default(72),
  CAIRN_UPLOAD_LEFTOVER_MINUTES: z.coerce.number().min(0).default(10),
  CAIRN_COMMIT_LEASE_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  CAIRN_TEST_CRASH_AT: z.enum(CRASH_POINTS).optional(),
  CAIRN_ARCHIVE_MAX_BYTES: z.coerce.number().int().min(0).default(0),
  CAIRN_SESSION_DAYS: z.coerce.number().int().min(1).default(14),
  CAIRN_SWEEP_INTERVAL_SECONDS: z.coerce.number().int().min(0).default(60),
  CAIRN_REQUEST_EXPIRY_DAYS: z.coerce.number().int().min(0).default(30),
  CAIRN_UPLOAD_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(UPLOAD_CONCURRENCY),
  CAIRN_UPLOAD_BATCH_FILES: z.coerce
    .number()
    .int()
    .min(0)
    .max(FILES_UPLOAD_BATCH_MAX)
    .default(UPLOAD_BATCH_FILES),
  CAIRN_DEFAULT_TRANSFER_TYPE: z.string().min(1).default(DEFAULT_TRANSFER_TYPE),
  // Cairn speaks multipart (M) as well as local (L) uploads; the deposit form's own default of L
  // alone is the browser's fallback when the page names none.
  CAIRN_ENABLED_TRANSFER_TYPES: commaList.default(['L', 'M']),
  CAIRN_PUBLISH_MODAL_EXTRA: jsonText.pipe(PublishModalExtraSchema).optional(),
  CAIRN_CREATOR_MODE: z.enum(['search', 'search_only', 'off']).default('search'),
  CAIRN_VOCABULARY_CUSTOM_FIELDS: commaList.default([]),
  CAIRN_CUSTOM_FIELDS_UI: jsonText.pipe(CustomFieldsUiSchema).optional(),
  CAIRN_LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
    .default('info'),
  ...OperationsEnv,
  CAIRN_TRUST_PROXY: trustProxy.default(false),
  CAIRN_RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).default(900),
  CAIRN_RATE_LIMIT_LOGIN_PER_ACCOUNT: attemptLimit.default(10),
  CAIRN_RATE_LIMIT_LOGIN_PER_ADDRESS: attemptLimit.default(100),
  CAIRN_RATE_LIMIT_SIGNUP_PER_ACCOUNT: attemptLimit.default(10),
  CAIRN_RATE_LIMIT_SIGNUP_PER_ADDRESS: attemptLimit.default(50),
  CAIRN_RATE_LIMIT_TOKENS_PER_ACCOUNT: attemptLimit.default(20),
  CAIRN_RATE_LIMIT_TOKENS_PER_ADDRESS: attemptLimit.default(100),
  CAIRN_SIGNPOSTING_MAX_ITEMS: z.coerce.number().int().min(0).default(100),
  CAIRN_SMTP_URL: z
    .url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' })
    .optional(),
  CAIRN_MAIL_FROM: z.string().trim().min(3).optional(),
  CAIRN_MAIL_RETRY_SECONDS: z.coerce.number().min(0).default(30),
  CAIRN_MAIL_LEASE_SECONDS: z.coerce.number().min(1).default(300),
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
  const problems =
    datacite !== 0 && datacite !== 3
      ? [
          'CAIRN_DATACITE_URL: set CAIRN_DATACITE_URL, CAIRN_DATACITE_USERNAME and CAIRN_DATACITE_PASSWORD together',
        ]
      : [];
  const enabled = (env.CAIRN_ENABLED_TRANSFER_TYPES ?? 'L,M').split(',').map((t) => t.trim());
  const preferred = env.CAIRN_DEFAULT_TRANSFER_TYPE ?? DEFAULT_TRANSFER_TYPE;
  if (!enabled.includes(preferred)) {
    problems.push(
      `CAIRN_DEFAULT_TRANSFER_TYPE: ${preferred} is not one of CAIRN_ENABLED_TRANSFER_TYPES`,
    );
  }
  if (env.CAIRN_TEST_CRASH_AT !== undefined && env.NODE_ENV !== 'test') {
    problems.push(
      "CAIRN_TEST_CRASH_AT: makes the server kill itself, for Cairn's crash tests only (they set NODE_ENV=test)",
    );
  }
  if (env.DATABASE_READ_URL !== undefined && env.DATABASE_URL === undefined) {
    problems.push(
      'DATABASE_READ_URL: a read replica needs its primary in DATABASE_URL (SQLite has none)',
    );
  }
  if (env.CAIRN_STORAGE === 's3') {
    for (const name of [
      'CAIRN_S3_BUCKET',
      'CAIRN_S3_ACCESS_KEY_ID',
      'CAIRN_S3_SECRET_ACCESS_KEY',
    ]) {
      if (!env[name]) problems.push(`${name}: required when CAIRN_STORAGE=s3`);
    }
  }
  problems.push(...operationsProblems(env));
  return problems;
}

/** Attempts allowed per window at one account and from one address; 0 means no limit. */
export interface AttemptLimits {
  readonly perAccount: number;
  readonly perAddress: number;
}

export interface DataCiteConfig {
  readonly url: string;
  readonly username: string;
  readonly password: string;
}

export interface MailConfig {
  /** `smtp://user:pass@host:587`; unset: messages are written to the log instead of sent. */
  readonly smtpUrl?: string;
  /** The From of every message. */
  readonly from: string;
  /** The first retry's delay; each further one doubles it (capped at six hours). */
  readonly retrySeconds: number;
  /** How long a sender holds the messages it claimed; a dead sender's are sent after it. */
  readonly leaseSeconds: number;
}

/**
 * A stand-in until the operator names someone: `admin@` the site's host, or, for a host that is
 * no domain (localhost), under the reserved `.invalid` domain, so that it reads as an address
 * and is plainly not one.
 */
function defaultAdminEmail(siteUrl: string): string {
  const host = new URL(siteUrl).hostname;
  return `admin@${host.includes('.') ? host : `${host}.invalid`}`;
}

/**
 * The domain of the default sender: the site's host when it is a domain name; an address on an
 * IP address or `localhost` would be refused by mail servers, so those get `cairn.invalid`.
 */
function mailDomain(siteUrl: string): string {
  const host = new URL(siteUrl).hostname;
  return /^[a-z0-9-]+(\.[a-z0-9-]+)*\.[a-z][a-z0-9-]*$/i.test(host) ? host : 'cairn.invalid';
}

/** The whole server configuration; built once at start-up and frozen. */
export interface Config {
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  readonly siteUrl: string;
  readonly siteName: string;
  /** Who answers for the repository, as OAI-PMH's Identify names them. */
  readonly adminEmail: string;
  /** Records (or sets) in one page of an OAI-PMH list; the rest follow by resumption token. */
  readonly oaiPageSize: number;
  readonly database:
    | { readonly kind: 'sqlite'; readonly file: string }
    | {
        readonly kind: 'postgres';
        readonly url: string;
        readonly schema?: string;
        /** A read replica for the search (`DATABASE_READ_URL`); unset: the primary answers it. */
        readonly readUrl?: string;
      };
  readonly doi: {
    readonly prefix: string;
    readonly required: boolean;
    readonly datacite?: DataCiteConfig;
  };
  /** Importing metadata into a draft (`…/draft/actions/import-metadata`). */
  readonly metadataImport: {
    /** DataCite's public REST API, read for DOIs it registered (`GET {url}/dois/{doi}`). */
    readonly dataciteApiUrl: string;
    /** Crossref's REST API, asked when DataCite does not know a DOI (`GET {url}/works/{doi}`). */
    readonly crossrefApiUrl: string;
    readonly timeoutMs: number;
    /** Largest file read; a bigger one is refused with 413. */
    readonly maxFileBytes: number;
  };
  readonly access: {
    readonly restrictionGraceDays: number;
    readonly allowRestrictionAfterGrace: boolean;
    /** Days after publication during which an owner may delete a version; 0: only admins. */
    readonly ownerDeletionDays: number;
  };
  readonly storage:
    | { readonly kind: 'local'; readonly root: string }
    | {
        readonly kind: 's3';
        readonly endpoint?: string;
        readonly publicEndpoint?: string;
        readonly region: string;
        readonly bucket: string;
        readonly accessKeyId: string;
        readonly secretAccessKey: string;
        readonly forcePathStyle: boolean;
      };
  readonly files: {
    readonly maxFilesPerRecord: number;
    readonly maxBytesPerRecord: number;
    readonly allowEmpty: boolean;
    readonly partUrlSeconds: number;
    readonly pendingMaxAgeHours: number;
    /**
     * Temporary files, and multipart uploads and stored objects that no row refers to, are a
     * killed upload's leftovers once untouched this long (another server may be writing them).
     */
    readonly leftoverMinutes: number;
    /** How long a commit's lease lasts unless renewed; a crashed commit is taken over after it. */
    readonly commitLeaseSeconds: number;
    /** 0: no cap on the size of a files-archive download. */
    readonly archiveMaxBytes: number;
  };
  readonly bodyLimitBytes: number;
  /** A request body from which no byte arrived for this long is answered 408; 0: never. */
  readonly bodyIdleTimeoutSeconds: number;
  readonly sessionDays: number;
  readonly sweepIntervalSeconds: number;
  /** Days a submitted review or inclusion request stays open before it expires; 0: never. */
  readonly requestExpiryDays: number;
  readonly logLevel: string;
  /** Health, metrics and shutdown (`modules/ops`). */
  readonly operations: OperationsConfig;
  /** Which proxies' `X-Forwarded-For` names the client (Fastify's `trustProxy`). */
  readonly trustProxy: boolean | number | readonly string[];
  /** Throttling of the actions that guess or mint credentials. */
  readonly rateLimits: {
    readonly windowSeconds: number;
    readonly login: AttemptLimits;
    readonly signup: AttemptLimits;
    readonly tokens: AttemptLimits;
  };
  /** What the deposit editor is told (the page bootstrap's config). */
  readonly editor: {
    readonly uploadConcurrency: number;
    /** Small files the uploader sends a request (0: each alone). */
    readonly uploadBatchFiles: number;
    readonly defaultTransferType: string;
    readonly enabledTransferTypes: readonly string[];
    readonly publishModalExtra: {
      readonly checkboxes: readonly { readonly id: string; readonly label: string }[];
      readonly text: string;
    };
    readonly creatorMode: 'search' | 'search_only' | 'off';
    /** Custom fields (`group` or `group.field`) holding vocabulary ids. */
    readonly vocabularyCustomFields: readonly string[];
    /** The form's custom fields area: groups and "Coming soon" placeholders, in order. */
    readonly customFieldsUi: readonly CustomFieldUi[];
  };
  /** Most URLs in one sitemap (the protocol allows 50,000); tests make it small. */
  readonly sitemapUrlsPerFile: number;
  /** FAIR Signposting of the landing pages. */
  readonly signposting: {
    /** The most `item` links, and the most `author` links, in a landing page's Link header. */
    readonly maxLinksPerRelation: number;
  };
  /** E-mail notifications (`modules/mail`). */
  readonly mail: MailConfig;
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
    adminEmail: e.CAIRN_ADMIN_EMAIL ?? defaultAdminEmail(siteUrl),
    oaiPageSize: e.CAIRN_OAI_PAGE_SIZE,
    database: e.DATABASE_URL
      ? {
          kind: 'postgres',
          url: e.DATABASE_URL,
          ...(e.DATABASE_READ_URL ? { readUrl: e.DATABASE_READ_URL } : {}),
        }
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
    metadataImport: {
      dataciteApiUrl: e.CAIRN_DATACITE_API_URL.replace(/\/+$/, ''),
      crossrefApiUrl: e.CAIRN_CROSSREF_API_URL.replace(/\/+$/, ''),
      timeoutMs: e.CAIRN_IMPORT_TIMEOUT_SECONDS * 1000,
      maxFileBytes: IMPORT_MAX_FILE_BYTES,
    },
    access: {
      restrictionGraceDays: e.CAIRN_RESTRICTION_GRACE_DAYS,
      allowRestrictionAfterGrace: e.CAIRN_ALLOW_RESTRICTION_AFTER_GRACE,
      ownerDeletionDays: e.CAIRN_OWNER_DELETION_DAYS,
    },
    storage:
      e.CAIRN_STORAGE === 's3'
        ? {
            kind: 's3',
            ...(e.CAIRN_S3_ENDPOINT ? { endpoint: e.CAIRN_S3_ENDPOINT } : {}),
            ...(e.CAIRN_S3_PUBLIC_ENDPOINT ? { publicEndpoint: e.CAIRN_S3_PUBLIC_ENDPOINT } : {}),
            region: e.CAIRN_S3_REGION,
            bucket: e.CAIRN_S3_BUCKET ?? '',
            accessKeyId: e.CAIRN_S3_ACCESS_KEY_ID ?? '',
            secretAccessKey: e.CAIRN_S3_SECRET_ACCESS_KEY ?? '',
            forcePathStyle: e.CAIRN_S3_FORCE_PATH_STYLE,
          }
        : { kind: 'local', root: path.join(dataDir, 'files') },
    files: {
      maxFilesPerRecord: e.CAIRN_FILES_MAX_PER_RECORD,
      maxBytesPerRecord: e.CAIRN_FILES_MAX_BYTES_PER_RECORD,
      allowEmpty: e.CAIRN_FILES_ALLOW_EMPTY,
      partUrlSeconds: e.CAIRN_UPLOAD_PART_URL_SECONDS,
      pendingMaxAgeHours: e.CAIRN_PENDING_UPLOAD_MAX_AGE_HOURS,
      leftoverMinutes: e.CAIRN_UPLOAD_LEFTOVER_MINUTES,
      commitLeaseSeconds: e.CAIRN_COMMIT_LEASE_SECONDS,
      archiveMaxBytes: e.CAIRN_ARCHIVE_MAX_BYTES,
    },
    bodyLimitBytes: e.CAIRN_BODY_LIMIT_BYTES,
    bodyIdleTimeoutSeconds: e.CAIRN_BODY_IDLE_TIMEOUT_SECONDS,
    sessionDays: e.CAIRN_SESSION_DAYS,
    sweepIntervalSeconds: e.CAIRN_SWEEP_INTERVAL_SECONDS,
    requestExpiryDays: e.CAIRN_REQUEST_EXPIRY_DAYS,
    logLevel: e.CAIRN_LOG_LEVEL,
    operations: operationsConfig(e),
    trustProxy: e.CAIRN_TRUST_PROXY,
    rateLimits: {
      windowSeconds: e.CAIRN_RATE_LIMIT_WINDOW_SECONDS,
      login: {
        perAccount: e.CAIRN_RATE_LIMIT_LOGIN_PER_ACCOUNT,
        perAddress: e.CAIRN_RATE_LIMIT_LOGIN_PER_ADDRESS,
      },
      signup: {
        perAccount: e.CAIRN_RATE_LIMIT_SIGNUP_PER_ACCOUNT,
        perAddress: e.CAIRN_RATE_LIMIT_SIGNUP_PER_ADDRESS,
      },
      tokens: {
        perAccount: e.CAIRN_RATE_LIMIT_TOKENS_PER_ACCOUNT,
        perAddress: e.CAIRN_RATE_LIMIT_TOKENS_PER_ADDRESS,
      },
    },
    editor: {
      uploadConcurrency: e.CAIRN_UPLOAD_CONCURRENCY,
      uploadBatchFiles: e.CAIRN_UPLOAD_BATCH_FILES,
      defaultTransferType: e.CAIRN_DEFAULT_TRANSFER_TYPE,
      enabledTransferTypes: e.CAIRN_ENABLED_TRANSFER_TYPES,
      publishModalExtra: e.CAIRN_PUBLISH_MODAL_EXTRA ?? { checkboxes: [], text: '' },
      creatorMode: e.CAIRN_CREATOR_MODE,
      vocabularyCustomFields: e.CAIRN_VOCABULARY_CUSTOM_FIELDS,
      customFieldsUi: e.CAIRN_CUSTOM_FIELDS_UI ?? DEFAULT_CUSTOM_FIELDS_UI,
    },
    sitemapUrlsPerFile: 10_000,
    signposting: { maxLinksPerRelation: e.CAIRN_SIGNPOSTING_MAX_ITEMS },
    mail: {
      ...(e.CAIRN_SMTP_URL ? { smtpUrl: e.CAIRN_SMTP_URL } : {}),
      from:
        e.CAIRN_MAIL_FROM ??
        `"${e.CAIRN_SITE_NAME.replace(/["\\]/g, '')}" <no-reply@${mailDomain(siteUrl)}>`,
      retrySeconds: e.CAIRN_MAIL_RETRY_SECONDS,
      leaseSeconds: e.CAIRN_MAIL_LEASE_SECONDS,
    },
    locales: ['en', 'de'],
    defaultLocale: 'en',
    ...overrides,
  };
  return Object.freeze(config);
}
