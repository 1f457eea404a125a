import { runPhase } from '../lib/load.js';
import { phaseTable, target, targetLine, machineInfo } from '../lib/report.js';
import { startServer } from '../lib/server.js';
import { consortiumDraft, realisticDraft } from './drafts.js';

/**
 * @typedef {import('../lib/report.js').BenchResult} BenchResult
 * @typedef {import('../lib/report.js').BenchOptions} BenchOptions
 * @typedef {import('../lib/load.js').PhaseSpec} PhaseSpec
 */

const EMAIL = 'bench@cairn.example';
const PASSWORD = 'cairn-bench-password';
const CONSORTIUM_SIZE = 2_000;
const CONCURRENCY = 16;
const THROUGHPUT = { warmupSeconds: 1, seconds: 5 };
// One request at a time: for the large draft the question is how long a person waits on save.
const LATENCY = { warmupRequests: 5, requests: 50 };

const GET_DRAFT_VS_HELLO_MIN_PERCENT = 40;
const PUT_CONSORTIUM_P50_MAX_MS = 100;
const LINK_VS_OWNER_MIN_PERCENT = 80;
const GRANT_VS_OWNER_MIN_PERCENT = 80;
const GRANTEE_EMAIL = 'grantee@bench.example';

/**
 * Throughput and latency of reading and saving drafts on SQLite, against `GET /api/hello` of the
 * same server in the same run, so that the ratio holds whatever machine runs it.
 * @param {BenchOptions} [options]
 * @returns {Promise<BenchResult>}
 */
export async function run(options = {}) {
  const startedAt = new Date().toISOString();
  const server = await startServer(options);
  try {
    await server.cli(['users', 'create', EMAIL, '--password', PASSWORD, '--name', 'Bench']);
    const token = (await server.cli(['tokens', 'create', EMAIL, '--name', 'bench'])).trim();
    const client = apiClient(server.baseUrl, token);

    const small = await client.createDraft(realisticDraft());
    const large = await client.createDraft(consortiumDraft(CONSORTIUM_SIZE));
    const smallGet = await client.checkDraft('GET', small.id, small.body, 5);
    const largeGet = await client.checkDraft('GET', large.id, large.body, CONSORTIUM_SIZE);
    await client.checkDraft('PUT', large.id, large.body, CONSORTIUM_SIZE);
    await client.checkDraft('PUT', small.id, small.body, 5);
    // A restricted record, read by its owner and through a secret link (issue 19).
    const restricted = await client.restrictedRecord(realisticDraft());
    await client.checkRecord(restricted.id, { authorization: `Bearer ${token}` });
    await client.checkRecord(`${restricted.id}?token=${restricted.token}`, {});
    // …and by a person it is granted to (`view`), with their own token.
    await server.cli(['users', 'create', GRANTEE_EMAIL, '--password', PASSWORD, '--name', 'G']);
    const granteeToken = (
      await server.cli(['tokens', 'create', GRANTEE_EMAIL, '--name', 'bench'])
    ).trim();
    await client.grantView(restricted.id, granteeToken);
    const granteeAuth = { authorization: `Bearer ${granteeToken}`, accept: 'application/json' };
    await client.checkRecord(restricted.id, granteeAuth);

    /** @type {Record<string, string>} */
    const auth = { authorization: `Bearer ${token}`, accept: 'application/json' };
    const json = { ...auth, 'content-type': 'application/json' };
    /** @type {PhaseSpec[]} */
    const phases = [
      {
        name: 'GET /api/hello',
        // No token: the baseline is the framework's floor, so the ratio includes the auth lookup.
        request: { method: 'GET', path: '/api/hello', headers: { accept: 'application/json' } },
        concurrency: CONCURRENCY,
        length: THROUGHPUT,
      },
      {
        name: 'GET draft (5 creators)',
        request: { method: 'GET', path: `/api/records/${small.id}/draft`, headers: auth },
        concurrency: CONCURRENCY,
        length: THROUGHPUT,
      },
      {
        name: 'PUT draft (5 creators)',
        request: {
          method: 'PUT',
          path: `/api/records/${small.id}/draft`,
          headers: json,
          body: small.body,
        },
        concurrency: CONCURRENCY,
        length: THROUGHPUT,
      },
      {
        name: `GET draft (${CONSORTIUM_SIZE.toLocaleString('en')} creators)`,
        request: { method: 'GET', path: `/api/records/${large.id}/draft`, headers: auth },
        concurrency: 1,
        length: LATENCY,
      },
      {
        name: `PUT draft (${CONSORTIUM_SIZE.toLocaleString('en')} creators)`,
        request: {
          method: 'PUT',
          path: `/api/records/${large.id}/draft`,
          headers: json,
          body: large.body,
        },
        concurrency: 1,
        length: LATENCY,
      },
      {
        name: 'GET restricted record (owner)',
        request: { method: 'GET', path: `/api/records/${restricted.id}`, headers: auth },
        concurrency: CONCURRENCY,
        length: THROUGHPUT,
      },
      {
        name: 'GET restricted record (link token)',
        // No personal token: the link's is all the caller has, as a reader given the link.
        request: {
          method: 'GET',
          path: `/api/records/${restricted.id}?token=${restricted.token}`,
          headers: { accept: 'application/json' },
        },
        concurrency: CONCURRENCY,
        length: THROUGHPUT,
      },
      {
        name: 'GET restricted record (user grant)',
        request: { method: 'GET', path: `/api/records/${restricted.id}`, headers: granteeAuth },
        concurrency: CONCURRENCY,
        length: THROUGHPUT,
      },
    ];

    process.stdout.write(
      `api: Cairn on SQLite, server pid ${server.pid}; ` +
        `draft bodies sent ${kB(small.body.length)} and ${kB(large.body.length)}, ` +
        `answered ${kB(smallGet)} and ${kB(largeGet)}\n\n`,
    );
    const results = [];
    for (const phase of phases) {
      results.push(
        await runPhase(server.baseUrl, { ...phase, serverCpuSeconds: server.cpuSeconds }),
      );
    }
    const [hello, getSmall, putSmall, , putLarge, byOwner, byLink, byGrant] = results;
    if (!hello || !getSmall || !putSmall || !putLarge || !byOwner || !byLink || !byGrant)
      throw new Error('a phase is missing');

    const targets = [
      target({
        label: 'GET draft / hello',
        value: (getSmall.perSecond / hello.perSecond) * 100,
        unit: '%',
        comparison: '≥',
        bound: GET_DRAFT_VS_HELLO_MIN_PERCENT,
      }),
      target({
        label: `PUT ${CONSORTIUM_SIZE.toLocaleString('en')} creators p50`,
        value: putLarge.p50Ms,
        unit: 'ms',
        comparison: '≤',
        bound: PUT_CONSORTIUM_P50_MAX_MS,
      }),
      target({
        label: 'GET restricted record: link / owner',
        value: (byLink.perSecond / byOwner.perSecond) * 100,
        unit: '%',
        comparison: '≥',
        bound: LINK_VS_OWNER_MIN_PERCENT,
      }),
      target({
        label: 'GET restricted record: grant / owner',
        value: (byGrant.perSecond / byOwner.perSecond) * 100,
        unit: '%',
        comparison: '≥',
        bound: GRANT_VS_OWNER_MIN_PERCENT,
      }),
    ];
    const peakRssBytes = await server.peakRssBytes();
    const notes = {
      'PUT draft / hello (%)': Math.round((putSmall.perSecond / hello.perSecond) * 100),
      'server peak RSS (MB)':
        peakRssBytes === undefined ? 'unknown (no /proc)' : Math.round(peakRssBytes / 2 ** 20),
    };

    process.stdout.write(`${phaseTable(results)}\n\n`);
    for (const t of targets) process.stdout.write(`${targetLine(t)}\n`);
    for (const [label, value] of Object.entries(notes)) {
      process.stdout.write(`${label}: ${value ?? '-'}\n`);
    }

    return {
      name: 'api',
      startedAt,
      machine: machineInfo(),
      phases: results,
      targets,
      notes,
      failures: results
        .filter((r) => r.errors > 0)
        .map((r) => `${r.name}: ${r.errors} failed requests; first: ${r.firstError ?? '?'}`),
    };
  } finally {
    await server.stop();
  }
}

/** @param {number} bytes */
function kB(bytes) {
  return `${(bytes / 1000).toFixed(1)} kB`;
}

/**
 * Set-up calls with their checks; the measured requests go through `runPhase` instead.
 * @param {string} baseUrl
 * @param {string} token
 */
function apiClient(baseUrl, token) {
  /**
   * @param {string} method
   * @param {string} path
   * @param {Buffer} [body]
   * @returns {Promise<{status: number, text: string, json: any}>}
   */
  async function call(method, path, body) {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        accept: 'application/json',
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body,
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
    return { status: response.status, text, json: JSON.parse(text) };
  }

  /**
   * A cheaper draft than intended (parts dropped as invalid) would make every figure a lie.
   * @param {string} what
   * @param {any} draft
   * @param {number} creators
   */
  function assertComplete(what, draft, creators) {
    if (Array.isArray(draft.errors) && draft.errors.length > 0) {
      throw new Error(`${what} reported errors: ${JSON.stringify(draft.errors).slice(0, 500)}`);
    }
    const stored = draft.metadata?.creators?.length;
    if (stored !== creators) throw new Error(`${what} holds ${stored} creators, not ${creators}`);
  }

  return {
    /**
     * @param {ReturnType<typeof realisticDraft>} draft
     * @returns {Promise<{id: string, body: Buffer}>}
     */
    async createDraft(draft) {
      const body = Buffer.from(JSON.stringify(draft));
      const { json } = await call('POST', '/api/records', body);
      assertComplete('POST /api/records', json, draft.metadata.creators.length);
      return { id: String(json.id), body };
    },

    /**
     * A published restricted record (no files) and a `view` secret link to it.
     * @param {ReturnType<typeof realisticDraft>} draft
     * @returns {Promise<{id: string, token: string}>}
     */
    async restrictedRecord(draft) {
      const restricted = {
        ...draft,
        access: { record: 'restricted', files: 'restricted' },
        files: { enabled: false },
      };
      const body = Buffer.from(JSON.stringify(restricted));
      const { json } = await call('POST', '/api/records', body);
      assertComplete('POST /api/records', json, draft.metadata.creators.length);
      const id = String(json.id);
      await call('POST', `/api/records/${id}/draft/actions/publish`);
      const link = await call(
        'POST',
        `/api/records/${id}/access/links`,
        Buffer.from(JSON.stringify({ permission: 'view' })),
      );
      return { id, token: String(link.json.token) };
    },

    /**
     * A `view` grant on the record to the holder of `granteeToken` (their id read as they see it).
     * @param {string} id
     * @param {string} granteeToken
     */
    async grantView(id, granteeToken) {
      const me = await fetch(`${baseUrl}/api/me`, {
        headers: { authorization: `Bearer ${granteeToken}`, accept: 'application/json' },
      });
      if (me.status !== 200) throw new Error(`GET /api/me answered ${me.status}`);
      const grantee = String(/** @type {{id: number}} */ (await me.json()).id);
      const grants = [{ subject: { type: 'user', id: grantee }, permission: 'view' }];
      await call(
        'POST',
        `/api/records/${id}/access/grants`,
        Buffer.from(JSON.stringify({ grants })),
      );
    },

    /**
     * A published record read as a load phase will read it (its own headers), checked.
     * @param {string} pathAfterRecords
     * @param {Record<string, string>} headers
     */
    async checkRecord(pathAfterRecords, headers) {
      const path = `/api/records/${pathAfterRecords}`;
      const response = await fetch(`${baseUrl}${path}`, {
        headers: { accept: 'application/json', ...headers },
      });
      const text = await response.text();
      if (response.status !== 200)
        throw new Error(`GET ${path} answered ${response.status}: ${text}`);
      if (JSON.parse(text).access?.record !== 'restricted')
        throw new Error(`GET ${path} is not the restricted record`);
    },

    /**
     * One request as the load phases will send it, checked; resolves with the response size.
     * @param {'GET' | 'PUT'} method
     * @param {string} id
     * @param {Buffer} body
     * @param {number} creators
     */
    async checkDraft(method, id, body, creators) {
      const path = `/api/records/${id}/draft`;
      const { json, text } = await call(method, path, method === 'PUT' ? body : undefined);
      assertComplete(`${method} ${path}`, json, creators);
      return Buffer.byteLength(text);
    },
  };
}
