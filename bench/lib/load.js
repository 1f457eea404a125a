import http from 'node:http';
import { performance } from 'node:perf_hooks';

/**
 * @typedef {object} RequestSpec
 * @property {'GET' | 'PUT' | 'POST'} method
 * @property {string} path
 * @property {Record<string, string>} [headers]
 * @property {Buffer} [body]
 */

/**
 * A phase runs either for a duration (throughput) or for a number of requests (latency of slow
 * requests, where a duration would give too few or too many samples).
 * @typedef {object} PhaseSpec
 * @property {string} name as printed in the table
 * @property {RequestSpec} request sent unchanged on every iteration
 * @property {number} concurrency requests in flight at once, each on its own kept-alive socket
 * @property {{seconds: number, warmupSeconds: number} | {requests: number, warmupRequests: number}} length
 * @property {() => number | undefined} [serverCpuSeconds] CPU time the server has used so far,
 *   read at the edges of the measured window
 */

/**
 * @typedef {object} PhaseResult
 * @property {string} name
 * @property {number} concurrency
 * @property {number} requests measured (warm-up excluded)
 * @property {number} seconds length of the measured window
 * @property {number} perSecond
 * @property {number} p50Ms
 * @property {number} p99Ms
 * @property {number} errors non-2xx answers and failed requests, warm-up included
 * @property {string} [firstError] status and the start of the body of the first error
 * @property {number} [serverCpuPercent] server CPU time over the window, in % of one core: near
 *   100 the server is the bottleneck; well below it, the load generator (or the network) is
 * @property {number} [serverCpuUsPerRequest] server CPU time per measured request, in µs: what
 *   a request costs, whoever the bottleneck was
 */

/**
 * @typedef {object} Outcome
 * @property {number} startMs
 * @property {number} endMs
 * @property {string} [error]
 */

const ERROR_BODY_CHARS = 300;

/**
 * Drives one phase against `baseUrl` and measures every request from the moment it is handed to
 * the socket until its response body has been read to the end.
 * @param {string} baseUrl
 * @param {PhaseSpec} phase
 * @returns {Promise<PhaseResult>}
 */
export async function runPhase(baseUrl, phase) {
  const url = new URL(baseUrl);
  const agent = new http.Agent({ keepAlive: true, maxSockets: phase.concurrency });
  /** @type {number[]} */
  const latencies = [];
  let errors = 0;
  /** @type {string | undefined} */
  let firstError;
  /** @param {Outcome} outcome */
  const noteError = (outcome) => {
    if (outcome.error === undefined) return;
    errors += 1;
    firstError ??= outcome.error;
  };
  /** @returns {Promise<Outcome>} */
  const send = () => sendOnce(agent, url, phase.request);

  const readCpu = phase.serverCpuSeconds ?? (() => undefined);
  /** @type {number | undefined} */
  let cpuAtBegin;
  /** @type {number | undefined} */
  let cpuAtEnd;
  let windowMs;
  try {
    if ('seconds' in phase.length) {
      const begin = performance.now() + phase.length.warmupSeconds * 1000;
      const end = begin + phase.length.seconds * 1000;
      const timers = [
        setTimeout(() => (cpuAtBegin = readCpu()), begin - performance.now()),
        setTimeout(() => (cpuAtEnd = readCpu()), end - performance.now()),
      ];
      // Completions inside the window are what count, so requests begun in the warm-up and those
      // still in flight when the window closes do not skew req/s.
      const worker = async () => {
        while (performance.now() < end) {
          const outcome = await send();
          noteError(outcome);
          if (outcome.endMs >= begin && outcome.endMs < end && outcome.error === undefined) {
            latencies.push(outcome.endMs - outcome.startMs);
          }
        }
      };
      await Promise.all(Array.from({ length: phase.concurrency }, worker));
      timers.forEach(clearTimeout);
      windowMs = end - begin;
    } else {
      const { warmupRequests, requests } = phase.length;
      let issued = 0;
      let first = Infinity;
      let last = 0;
      const worker = async () => {
        while (issued < warmupRequests + requests) {
          const measured = issued >= warmupRequests;
          if (issued === warmupRequests) cpuAtBegin = readCpu();
          issued += 1;
          const outcome = await send();
          noteError(outcome);
          if (measured && outcome.error === undefined) {
            latencies.push(outcome.endMs - outcome.startMs);
            first = Math.min(first, outcome.startMs);
            last = Math.max(last, outcome.endMs);
          }
        }
      };
      await Promise.all(Array.from({ length: phase.concurrency }, worker));
      cpuAtEnd = readCpu();
      windowMs = last > first ? last - first : 0;
    }
  } finally {
    agent.destroy();
  }

  latencies.sort((a, b) => a - b);
  const cpuSeconds =
    cpuAtBegin === undefined || cpuAtEnd === undefined ? undefined : cpuAtEnd - cpuAtBegin;
  return {
    name: phase.name,
    concurrency: phase.concurrency,
    requests: latencies.length,
    seconds: windowMs / 1000,
    perSecond: windowMs > 0 ? (latencies.length * 1000) / windowMs : 0,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    errors,
    firstError,
    serverCpuPercent:
      cpuSeconds === undefined || windowMs === 0 ? undefined : (cpuSeconds * 1e5) / windowMs,
    serverCpuUsPerRequest:
      cpuSeconds === undefined || latencies.length === 0
        ? undefined
        : (cpuSeconds * 1e6) / latencies.length,
  };
}

/**
 * Nearest-rank percentile of ascending values; NaN when there are none.
 * @param {number[]} sorted
 * @param {number} p
 */
export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] ?? NaN;
}

/**
 * @param {http.Agent} agent
 * @param {URL} base
 * @param {RequestSpec} spec
 * @returns {Promise<Outcome>}
 */
function sendOnce(agent, base, spec) {
  return new Promise((resolve) => {
    const startMs = performance.now();
    /** @param {string} error */
    const fail = (error) => resolve({ startMs, endMs: performance.now(), error });
    const headers = spec.body
      ? { ...spec.headers, 'content-length': String(spec.body.length) }
      : spec.headers;
    const request = http.request(
      {
        agent,
        host: base.hostname,
        port: base.port,
        method: spec.method,
        path: spec.path,
        headers,
      },
      (response) => {
        const status = response.statusCode ?? 0;
        const isOk = status >= 200 && status < 300;
        let head = '';
        response.on('data', (/** @type {Buffer} */ chunk) => {
          if (!isOk && head.length < ERROR_BODY_CHARS) head += chunk.toString();
        });
        response.on('end', () => {
          if (isOk) resolve({ startMs, endMs: performance.now() });
          else fail(`${status} ${spec.method} ${spec.path}: ${head.slice(0, ERROR_BODY_CHARS)}`);
        });
        response.on('error', (error) => fail(`${spec.method} ${spec.path}: ${error.message}`));
      },
    );
    request.on('error', (error) => fail(`${spec.method} ${spec.path}: ${error.message}`));
    request.end(spec.body);
  });
}
