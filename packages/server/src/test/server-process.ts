import { spawn, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

import { CAIRN_BIN, cairnCommand } from './cli-process.js';

export { CAIRN_BIN, cairnCommand, runCairn } from './cli-process.js';

const READY_TIMEOUT_MS = 60_000;

/** A `cairn serve` running as a child process, to be killed at will. */
export interface ServerProcess {
  /** Base URL, without a trailing slash. */
  url: string;
  port: number;
  pid: number;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** Sends `signal` (SIGKILL by default) and waits for the process to end; its exit code. */
  kill(signal?: NodeJS.Signals): Promise<number | null>;
  /** Resolves when the process has ended by itself. */
  exited: Promise<number | null>;
}

/** A port nobody listens on right now (the OS may hand it out again before it is bound). */
export async function freePort(): Promise<number> {
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

const children = new Set<ChildProcess>();
// A test worker that dies without its afterAll must not leave servers running.
process.once('exit', () => children.forEach((child) => child.kill('SIGKILL')));

/**
 * Starts `cairn serve` (the compiled CLI, `npm run build` or the server tests' global setup
 * compiles it) with `env` over a quiet default environment, and waits until it answers.
 * A fresh database gets the demo data, as `npm start` does.
 */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    try {
      return await spawnServer(port, env);
    } catch (error) {
      if (!(error instanceof PortTaken) || attempt >= 3) throw error;
    }
  }
}

class PortTaken extends Error {}

async function spawnServer(port: number, env: Record<string, string>): Promise<ServerProcess> {
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [CAIRN_BIN, 'serve'], {
    env: {
      PATH: process.env.PATH ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      CAIRN_SITE_URL: url,
      CAIRN_LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code, signal) => {
      children.delete(child);
      resolve(code ?? (signal ? null : 0));
    }),
  );
  const kill = async (signal: NodeJS.Signals = 'SIGKILL') => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    return exited;
  };
  const started = Date.now();
  let ended = false;
  void exited.then(() => (ended = true));
  while (!output.includes('Cairn is running at')) {
    if (ended) {
      if (output.includes('EADDRINUSE')) throw new PortTaken();
      throw new Error(`cairn serve ended before it was ready:\n${output}`);
    }
    if (Date.now() - started > READY_TIMEOUT_MS) {
      await kill();
      throw new Error(`cairn serve was not ready after ${READY_TIMEOUT_MS} ms:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { url, port, pid: child.pid!, output: () => output, kill, exited };
}

/** A data folder of its own; removed by the returned function. */
export async function tempDataDir(): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'cairn-proc-'));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * A fresh PostgreSQL database on the test server (CAIRN_TEST_DATABASE_URL) for server processes,
 * which take a `DATABASE_URL` and no schema: several processes can share it as app servers behind
 * a load balancer share theirs.
 */
export async function createProcessDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = process.env.CAIRN_TEST_DATABASE_URL;
  if (!base) throw new Error('CAIRN_TEST_DATABASE_URL is not set');
  const name = `cairn_proc_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: base });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
}

/** What `callApi` answers: the status, the headers, the body as bytes and text, and as JSON on demand. */
export interface ApiAnswer {
  status: number;
  headers: Headers;
  bytes: Buffer;
  text: string;
  json: () => Record<string, any>;
}

/**
 * A request over real HTTP to `base` (a child process, or an app listening): a Buffer body goes
 * as octet-stream (file content), a string as it is with the JSON type, anything else as JSON.
 */
export async function callApi(
  base: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<ApiAnswer> {
  const binary = Buffer.isBuffer(body);
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(body === undefined
        ? {}
        : { 'content-type': binary ? 'application/octet-stream' : 'application/json' }),
      ...headers,
    },
    ...(body === undefined
      ? {}
      : { body: binary || typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  const text = bytes.toString('utf8');
  return {
    status: res.status,
    headers: res.headers,
    bytes,
    text,
    json: () => JSON.parse(text) as Record<string, any>,
  };
}

/** A new account and a personal access token for it, made with the CLI; `Authorization` headers. */
export async function processUser(
  env: Record<string, string>,
  email = `person-${crypto.randomBytes(4).toString('hex')}@cairn.test`,
  options: { admin?: boolean } = {},
): Promise<{ email: string; headers: Record<string, string> }> {
  await cairnCommand(
    [
      'users',
      'create',
      email,
      '--password',
      'correct horse battery',
      ...(options.admin ? ['--admin'] : []),
    ],
    env,
  );
  const token = (await cairnCommand(['tokens', 'create', email], env)).trim();
  return { email, headers: { authorization: `Bearer ${token}` } };
}
