import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

function problemsOf(env: NodeJS.ProcessEnv): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('runs on SQLite in ./data with the documented defaults when nothing is set', () => {
    const config = loadConfig({});
    const dataDir = path.resolve('./data');
    expect(config).toEqual({
      port: 5000,
      host: '127.0.0.1',
      dataDir,
      siteUrl: 'http://127.0.0.1:5000',
      siteName: 'Cairn',
      adminEmail: 'admin@127.0.0.1',
      oaiPageSize: 100,
      database: { kind: 'sqlite', file: path.join(dataDir, 'cairn.sqlite') },
      doi: { prefix: '10.5072', required: false },
      metadataImport: {
        dataciteApiUrl: 'https://api.datacite.org',
        crossrefApiUrl: 'https://api.crossref.org',
        timeoutMs: 10_000,
        maxFileBytes: 5 * 1024 * 1024,
      },
      access: { restrictionGraceDays: 30, allowRestrictionAfterGrace: false, ownerDeletionDays: 0 },
      storage: { kind: 'local', root: path.join(dataDir, 'files') },
      files: {
        maxFilesPerRecord: 5,
        maxBytesPerRecord: 1e10,
        allowEmpty: true,
        partUrlSeconds: 604_800,
        pendingMaxAgeHours: 72,
        leftoverMinutes: 10,
        commitLeaseSeconds: 30,
        archiveMaxBytes: 0,
      },
      bodyLimitBytes: 10 * 1024 * 1024,
      bodyIdleTimeoutSeconds: 30,
      sessionDays: 14,
      sweepIntervalSeconds: 60,
      requestExpiryDays: 30,
      logLevel: 'info',
      operations: {
        shutdownGraceSeconds: 10,
        shutdownUploadGraceSeconds: 60,
        heapGrowthPercent: 50,
      },
      trustProxy: false,
      rateLimits: {
        windowSeconds: 900,
        login: { perAccount: 10, perAddress: 100 },
        signup: { perAccount: 10, perAddress: 50 },
        tokens: { perAccount: 20, perAddress: 100 },
      },
      editor: {
        uploadConcurrency: 3,
        uploadBatchFiles: 64,
        defaultTransferType: 'L',
        enabledTransferTypes: ['L', 'M'],
        publishModalExtra: { checkboxes: [], text: '' },
        creatorMode: 'search',
        vocabularyCustomFields: [],
        customFieldsUi: [
          { field: 'imprint:imprint' },
          { field: 'journal:journal' },
          { field: 'meeting:meeting' },
          { field: 'thesis:thesis' },
        ],
      },
      sitemapUrlsPerFile: 10_000,
      signposting: { maxLinksPerRelation: 100 },
      mail: {
        from: '"Cairn" <no-reply@cairn.invalid>',
        retrySeconds: 30,
        leaseSeconds: 300,
      },
      locales: ['en', 'de'],
      defaultLocale: 'en',
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '0.0.0.0',
      CAIRN_DATA_DIR: '/var/lib/cairn',
      CAIRN_SITE_URL: 'https://data.example.org/',
      CAIRN_SITE_NAME: 'Example Data',
      DATABASE_URL: 'postgres://cairn@db/cairn',
      CAIRN_DOI_PREFIX: '10.12345',
      CAIRN_DOI_REQUIRED: 'yes',
      CAIRN_DATACITE_URL: 'https://api.test.datacite.org/',
      CAIRN_DATACITE_USERNAME: 'EXAMPLE.DATA',
      CAIRN_DATACITE_PASSWORD: 'secret',
      CAIRN_DATACITE_API_URL: 'http://datacite.proxy.internal/',
      CAIRN_CROSSREF_API_URL: 'http://crossref.proxy.internal',
      CAIRN_IMPORT_TIMEOUT_SECONDS: '3',
      CAIRN_RESTRICTION_GRACE_DAYS: '0',
      CAIRN_ALLOW_RESTRICTION_AFTER_GRACE: '1',
      CAIRN_BODY_LIMIT_BYTES: '2048',
      CAIRN_BODY_IDLE_TIMEOUT_SECONDS: '7.5',
      CAIRN_SESSION_DAYS: '1',
      CAIRN_SWEEP_INTERVAL_SECONDS: '0',
      CAIRN_LOG_LEVEL: 'warn',
      CAIRN_TRUST_PROXY: '1',
      CAIRN_RATE_LIMIT_WINDOW_SECONDS: '60',
      CAIRN_RATE_LIMIT_LOGIN_PER_ACCOUNT: '5',
      CAIRN_RATE_LIMIT_LOGIN_PER_ADDRESS: '0',
      CAIRN_RATE_LIMIT_SIGNUP_PER_ACCOUNT: '3',
      CAIRN_RATE_LIMIT_SIGNUP_PER_ADDRESS: '7',
      CAIRN_RATE_LIMIT_TOKENS_PER_ACCOUNT: '8',
      CAIRN_RATE_LIMIT_TOKENS_PER_ADDRESS: '9',
      CAIRN_SIGNPOSTING_MAX_ITEMS: '0',
    });
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      dataDir: '/var/lib/cairn',
      siteUrl: 'https://data.example.org',
      siteName: 'Example Data',
      database: { kind: 'postgres', url: 'postgres://cairn@db/cairn' },
      doi: {
        prefix: '10.12345',
        required: true,
        datacite: {
          url: 'https://api.test.datacite.org',
          username: 'EXAMPLE.DATA',
          password: 'secret',
        },
      },
      metadataImport: {
        dataciteApiUrl: 'http://datacite.proxy.internal',
        crossrefApiUrl: 'http://crossref.proxy.internal',
        timeoutMs: 3000,
      },
      access: { restrictionGraceDays: 0, allowRestrictionAfterGrace: true },
      bodyLimitBytes: 2048,
      bodyIdleTimeoutSeconds: 7.5,
      sessionDays: 1,
      sweepIntervalSeconds: 0,
      logLevel: 'warn',
      trustProxy: 1,
      rateLimits: {
        windowSeconds: 60,
        login: { perAccount: 5, perAddress: 0 },
        signup: { perAccount: 3, perAddress: 7 },
        tokens: { perAccount: 8, perAddress: 9 },
      },
      signposting: { maxLinksPerRelation: 0 },
    });
  });

  it('reads the mail settings, and refuses an SMTP URL of another scheme', () => {
    const config = loadConfig({
      CAIRN_SITE_URL: 'https://data.example.org',
      CAIRN_SMTP_URL: 'smtp://user:pass@mail.example.org:587',
      CAIRN_MAIL_RETRY_SECONDS: '5',
      CAIRN_MAIL_LEASE_SECONDS: '60',
    });
    expect(config.mail).toEqual({
      smtpUrl: 'smtp://user:pass@mail.example.org:587',
      from: '"Cairn" <no-reply@data.example.org>',
      retrySeconds: 5,
      leaseSeconds: 60,
    });
    expect(loadConfig({ CAIRN_MAIL_FROM: 'Data <data@example.org>' }).mail.from).toBe(
      'Data <data@example.org>',
    );
    expect(
      problemsOf({ CAIRN_SMTP_URL: 'http://mail.example.org', CAIRN_MAIL_LEASE_SECONDS: '0' }),
    ).toEqual([
      'CAIRN_SMTP_URL: must be an smtp:// or smtps:// URL',
      expect.stringMatching(/^CAIRN_MAIL_LEASE_SECONDS: /),
    ]);
  });

  it('refuses a negative number of signposting links', () => {
    expect(problemsOf({ CAIRN_SIGNPOSTING_MAX_ITEMS: '-1' })[0]).toMatch(
      /^CAIRN_SIGNPOSTING_MAX_ITEMS: /,
    );
  });

  it.each([
    ['true', true],
    ['false', false],
    ['2', 2],
    ['10.0.0.0/8, 192.168.1.4', ['10.0.0.0/8', '192.168.1.4']],
  ])('reads CAIRN_TRUST_PROXY=%s', (value, expected) => {
    expect(loadConfig({ CAIRN_TRUST_PROXY: value }).trustProxy).toEqual(expected);
  });

  it('refuses a negative or fractional rate limit and a window under a second', () => {
    expect(
      problemsOf({
        CAIRN_RATE_LIMIT_LOGIN_PER_ACCOUNT: '-1',
        CAIRN_RATE_LIMIT_TOKENS_PER_ADDRESS: '2.5',
        CAIRN_RATE_LIMIT_WINDOW_SECONDS: '0',
      }).map((problem) => problem.split(':')[0]),
    ).toEqual([
      'CAIRN_RATE_LIMIT_WINDOW_SECONDS',
      'CAIRN_RATE_LIMIT_LOGIN_PER_ACCOUNT',
      'CAIRN_RATE_LIMIT_TOKENS_PER_ADDRESS',
    ]);
  });

  it('reports every problem at once', () => {
    const problems = problemsOf({
      PORT: 'abc',
      DATABASE_URL: 'mysql://cairn@db/cairn',
      CAIRN_DATACITE_URL: 'https://api.test.datacite.org',
      CAIRN_DATACITE_USERNAME: 'EXAMPLE.DATA',
    });
    expect(problems).toHaveLength(3);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^PORT: /),
        'DATABASE_URL: must be a postgres:// URL (leave unset for SQLite)',
        'CAIRN_DATACITE_URL: set CAIRN_DATACITE_URL, CAIRN_DATACITE_USERNAME and CAIRN_DATACITE_PASSWORD together',
      ]),
    );
  });

  it('reads the upload crash settings, and arms crash points only in tests', () => {
    expect(
      loadConfig({ CAIRN_UPLOAD_LEFTOVER_MINUTES: '0', CAIRN_COMMIT_LEASE_SECONDS: '2' }).files,
    ).toMatchObject({ leftoverMinutes: 0, commitLeaseSeconds: 2 });
    expect(problemsOf({ CAIRN_TEST_CRASH_AT: 'commit:assembled' })).toEqual([
      "CAIRN_TEST_CRASH_AT: makes the server kill itself, for Cairn's crash tests only (they set NODE_ENV=test)",
    ]);
    expect(problemsOf({ CAIRN_TEST_CRASH_AT: 'nowhere', NODE_ENV: 'test' })).toEqual([
      expect.stringMatching(/^CAIRN_TEST_CRASH_AT: /),
    ]);
    expect(() =>
      loadConfig({ CAIRN_TEST_CRASH_AT: 'commit:assembled', NODE_ENV: 'test' }),
    ).not.toThrow();
    expect(problemsOf({ CAIRN_COMMIT_LEASE_SECONDS: '0' })).toEqual([
      expect.stringMatching(/^CAIRN_COMMIT_LEASE_SECONDS: /),
    ]);
  });

  it('names each problem in the error message', () => {
    expect(() =>
      loadConfig({
        CAIRN_DOI_PREFIX: '11.1',
        CAIRN_BODY_LIMIT_BYTES: '10',
        CAIRN_LOG_LEVEL: 'loud',
      }),
    ).toThrow(
      /CAIRN_DOI_PREFIX: must look like 10\.1234[\s\S]*CAIRN_BODY_LIMIT_BYTES[\s\S]*CAIRN_LOG_LEVEL/,
    );
  });

  it('reads the deposit editor settings', () => {
    const config = loadConfig({
      CAIRN_UPLOAD_CONCURRENCY: '5',
      CAIRN_UPLOAD_BATCH_FILES: '0',
      CAIRN_DEFAULT_TRANSFER_TYPE: 'M',
      CAIRN_ENABLED_TRANSFER_TYPES: 'M, L',
      CAIRN_PUBLISH_MODAL_EXTRA: JSON.stringify({
        checkboxes: [{ id: 'terms', label: 'I accept the terms.' }],
        text: 'Read the policy.',
      }),
      CAIRN_CREATOR_MODE: 'search_only',
      CAIRN_VOCABULARY_CUSTOM_FIELDS: 'cern:experiments, thesis:thesis.type',
      CAIRN_CUSTOM_FIELDS_UI: JSON.stringify([
        { field: 'thesis:thesis' },
        {
          field: 'cern:experiment',
          ui_widget: 'ComingSoonField',
          props: { label: 'Experiment', description: 'The experiment that took the data.' },
        },
      ]),
    });
    expect(config.editor).toEqual({
      uploadConcurrency: 5,
      uploadBatchFiles: 0,
      defaultTransferType: 'M',
      enabledTransferTypes: ['M', 'L'],
      publishModalExtra: {
        checkboxes: [{ id: 'terms', label: 'I accept the terms.' }],
        text: 'Read the policy.',
      },
      creatorMode: 'search_only',
      vocabularyCustomFields: ['cern:experiments', 'thesis:thesis.type'],
      customFieldsUi: [
        { field: 'thesis:thesis' },
        {
          field: 'cern:experiment',
          ui_widget: 'ComingSoonField',
          props: { label: 'Experiment', description: 'The experiment that took the data.' },
        },
      ],
    });
  });

  it('refuses a custom fields area it could not show, every problem at once', () => {
    expect(
      problemsOf({
        CAIRN_CUSTOM_FIELDS_UI: JSON.stringify([
          { field: 'journal:journal', ui_widget: 'ComingSoonField', props: { label: 'J' } },
          { field: 'cern:experiment' },
          { field: 'cern:beam', ui_widget: 'ComingSoonField' },
          { field: 'cern:magnet', ui_widget: 'SliderField', props: { label: 'Magnet' } },
        ]),
      }),
    ).toEqual([
      'CAIRN_CUSTOM_FIELDS_UI.0.ui_widget: journal:journal has a widget of its own; leave ui_widget out',
      'CAIRN_CUSTOM_FIELDS_UI.1.ui_widget: cern:experiment is not one of imprint:imprint, journal:journal, meeting:meeting, thesis:thesis: only ComingSoonField can show it',
      'CAIRN_CUSTOM_FIELDS_UI.2.props.label: ComingSoonField needs a label',
      expect.stringMatching(/^CAIRN_CUSTOM_FIELDS_UI\.3\.ui_widget: /),
    ]);
    expect(
      problemsOf({
        CAIRN_CUSTOM_FIELDS_UI: JSON.stringify([
          { field: 'thesis:thesis' },
          { field: 'thesis:thesis' },
        ]),
      }),
    ).toEqual(['CAIRN_CUSTOM_FIELDS_UI: each field may be listed once']);
    expect(problemsOf({ CAIRN_CUSTOM_FIELDS_UI: '[' })).toEqual([
      'CAIRN_CUSTOM_FIELDS_UI: must be JSON',
    ]);
  });

  it('refuses bad deposit editor settings, every one at once', () => {
    const problems = problemsOf({
      CAIRN_UPLOAD_CONCURRENCY: '0',
      CAIRN_UPLOAD_BATCH_FILES: '1001',
      CAIRN_DEFAULT_TRANSFER_TYPE: 'R',
      CAIRN_PUBLISH_MODAL_EXTRA: JSON.stringify({
        checkboxes: [
          { id: 'a', label: 'A' },
          { id: 'a', label: 'B' },
        ],
      }),
      CAIRN_CREATOR_MODE: 'maybe',
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^CAIRN_UPLOAD_CONCURRENCY: /),
        expect.stringMatching(/^CAIRN_UPLOAD_BATCH_FILES: /),
        'CAIRN_PUBLISH_MODAL_EXTRA: checkbox ids must be unique',
        expect.stringMatching(/^CAIRN_CREATOR_MODE: /),
        'CAIRN_DEFAULT_TRANSFER_TYPE: R is not one of CAIRN_ENABLED_TRANSFER_TYPES',
      ]),
    );
    expect(problemsOf({ CAIRN_PUBLISH_MODAL_EXTRA: '{not json' })).toEqual([
      'CAIRN_PUBLISH_MODAL_EXTRA: must be JSON',
    ]);
  });

  it('refuses half a DataCite configuration even when nothing else is wrong', () => {
    expect(problemsOf({ CAIRN_DATACITE_PASSWORD: 'secret' })).toEqual([
      'CAIRN_DATACITE_URL: set CAIRN_DATACITE_URL, CAIRN_DATACITE_USERNAME and CAIRN_DATACITE_PASSWORD together',
    ]);
  });
  it('reads the metrics port, the shutdown graces and the heap growth, and refuses a metrics port equal to PORT', () => {
    expect(
      loadConfig({
        CAIRN_METRICS_PORT: '9464',
        CAIRN_SHUTDOWN_GRACE_SECONDS: '5',
        CAIRN_SHUTDOWN_UPLOAD_GRACE_SECONDS: '300',
        CAIRN_HEAP_GROWTH_PERCENT: '0',
      }).operations,
    ).toEqual({
      metricsPort: 9464,
      shutdownGraceSeconds: 5,
      shutdownUploadGraceSeconds: 300,
      heapGrowthPercent: 0,
    });
    expect(problemsOf({ CAIRN_HEAP_GROWTH_PERCENT: '12.5' })).toHaveLength(1);
    expect(problemsOf({ PORT: '8080', CAIRN_METRICS_PORT: '8080' })).toEqual([
      'CAIRN_METRICS_PORT: must differ from PORT',
    ]);
    expect(problemsOf({ CAIRN_METRICS_PORT: '5000' })).toEqual([
      'CAIRN_METRICS_PORT: must differ from PORT',
    ]);
    const problems = problemsOf({
      CAIRN_METRICS_PORT: 'x',
      CAIRN_SHUTDOWN_UPLOAD_GRACE_SECONDS: '-1',
    });
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/^CAIRN_METRICS_PORT: /);
    expect(problems[1]).toMatch(/^CAIRN_SHUTDOWN_UPLOAD_GRACE_SECONDS: /);
  });
});
