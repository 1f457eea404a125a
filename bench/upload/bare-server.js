// The baseline of bench/upload: a bare Node HTTP server that streams the bytes to disk, and
// nothing more. No framework, no authentication, no database, no checksum.
//
//   node bench/upload/bare-server.js <directory>
//
// Prints `{"port": <n>}` on one line once it listens on 127.0.0.1, and serves:
//
//   PUT  /files/<name>                                 the body into <directory>/<name>
//   PUT  /uploads/<id>/parts/<n>?part_size=<S>         the body into <directory>/<id>/data at
//                                                      offset (n-1)·S
//   POST /uploads/<id>/commit?parts=<P>&name=<f>       <directory>/<id>/data renamed to
//                                                      <directory>/<f>
//
// each answering `{"size": <bytes>}`. Files are fsynced before answering (`flush: true`), as
// Cairn's are: what the ratio to it measures is everything Cairn adds (authentication, the
// database, quotas, MD5 of every byte, per-part bookkeeping for resume).
import { createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';

const NAME = /^[\w.-]+$/;
const root = process.argv[2] ?? usage();

/** @returns {never} */
function usage() {
  process.stderr.write('usage: node bare-server.js <directory>\n');
  process.exit(2);
}

/**
 * Streams `source` into `file` (from `start` when given) and resolves once it is on disk.
 * @param {http.IncomingMessage} source
 * @param {string} file
 * @param {number} [start]
 */
async function store(source, file, start) {
  let size = 0;
  source.on('data', (/** @type {Buffer} */ chunk) => {
    size += chunk.length;
  });
  await pipeline(
    source,
    createWriteStream(
      file,
      start === undefined ? { flush: true } : { flags: 'r+', start, flush: true },
    ),
  );
  return { size };
}

/**
 * @param {string | undefined | null} name
 * @returns {string}
 */
function safe(name) {
  if (name === undefined || name === null || !NAME.test(name) || name.startsWith('.')) {
    throw Object.assign(new Error(`bad name ${JSON.stringify(name)}`), { status: 400 });
  }
  return name;
}

/**
 * @param {http.IncomingMessage} request
 * @returns {Promise<{size: number}>}
 */
async function handle(request) {
  const url = new URL(request.url ?? '/', 'http://bare');
  const [, kind, name, action, part] = url.pathname.split('/');
  if (request.method === 'PUT' && kind === 'files' && action === undefined) {
    return store(request, path.join(root, safe(name)));
  }
  if (request.method === 'PUT' && kind === 'uploads' && action === 'parts') {
    const dir = path.join(root, safe(name));
    await mkdir(dir, { recursive: true });
    const data = path.join(dir, 'data');
    // Parts arrive in parallel: each makes sure the file exists without truncating another's.
    await (await open(data, 'a')).close();
    const offset = (Number(safe(part)) - 1) * Number(url.searchParams.get('part_size'));
    return store(request, data, offset);
  }
  if (request.method === 'POST' && kind === 'uploads' && action === 'commit') {
    const dir = path.join(root, safe(name));
    const target = path.join(root, safe(url.searchParams.get('name')));
    request.resume();
    await rename(path.join(dir, 'data'), target);
    await rm(dir, { recursive: true, force: true });
    return { size: (await stat(target)).size };
  }
  throw Object.assign(new Error(`no route ${request.method ?? '?'} ${url.pathname}`), {
    status: 404,
  });
}

const server = http.createServer((request, response) => {
  handle(request).then(
    (stored) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(stored));
    },
    (/** @type {Error & {status?: number}} */ error) => {
      response.writeHead(error.status ?? 500, { 'content-type': 'text/plain' });
      response.end(error.message);
    },
  );
});
// Node's default of 5 minutes per request would cut a slow disk's multi-GiB upload short.
server.requestTimeout = 0;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(
    `${JSON.stringify({ port: typeof address === 'object' ? address?.port : 0 })}\n`,
  );
});
