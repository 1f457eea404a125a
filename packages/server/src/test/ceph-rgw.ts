import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';

const run = promisify(execFile);

/** Debian's Ceph (bookworm: Pacific 16.2): a monitor, one OSD and the RADOS Gateway (S3). */
const PROGRAMS = ['ceph-mon', 'ceph-osd', 'radosgw', 'radosgw-admin', 'monmaptool', 'ceph'];
const INSTALL = 'apt-get install -y --no-install-recommends radosgw ceph-mon ceph-osd';
// The gateway creates its pools on first start: about 6 s on an idle machine, more on busy cores.
const READY_TIMEOUT_MS = 90_000;
/** For the `beforeAll` that starts the gateway: more than the server tests' default hook time. */
export const RGW_START_TIMEOUT_MS = 150_000;

/** A running S3 endpoint backed by a throw-away single-node Ceph cluster. */
export interface RgwServer {
  endpoint: string;
  accessKeyId: string;
  secretAccessKey: string;
  stop(): Promise<void>;
}

/**
 * Starts Ceph's RADOS Gateway, a real S3 implementation, for one test file: a monitor and one
 * memory-backed OSD (nothing touches a disk but the temp folder's config and logs) on free
 * loopback ports, without authentication inside the cluster, and an S3 user with fresh keys.
 * Fails with the install command when Ceph is absent: these tests must not skip silently.
 */
export async function startRgw(): Promise<RgwServer> {
  const missing = PROGRAMS.filter((name) => !onPath(name));
  if (missing.length > 0) {
    throw new Error(
      `The S3 tests run against Ceph's RADOS Gateway; ${missing.join(', ')} not found. ` +
        `Install them with: sudo ${INSTALL}`,
    );
  }
  const dir = await mkdtemp(join(tmpdir(), 'cairn-rgw-'));
  const children: ChildProcess[] = [];
  // A test worker that dies without its afterAll must not leave a cluster running.
  const killAll = () => children.forEach((c) => c.kill('SIGKILL'));
  process.once('exit', killAll);
  const stop = async () => {
    process.off('exit', killAll);
    await Promise.all(children.map(stopChild));
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const [monPort, rgwPort] = await Promise.all([freePort(), freePort()]);
    const fsid = randomUUID();
    const conf = join(dir, 'ceph.conf');
    await Promise.all(['mon', 'osd', 'run', 'log'].map((d) => mkdir(join(dir, d))));
    await writeFile(conf, config(dir, fsid, monPort, rgwPort));
    const c = ['-c', conf];
    await run('monmaptool', [
      '--create',
      '--fsid',
      fsid,
      '--addv',
      'a',
      `[v2:127.0.0.1:${monPort}]`,
      join(dir, 'monmap'),
    ]);
    await run('ceph-mon', [...c, '-i', 'a', '--mkfs', '--monmap', join(dir, 'monmap')]);
    children.push(daemon('ceph-mon', [...c, '-i', 'a']));
    const osdUuid = randomUUID();
    await run('ceph', [...c, '--connect-timeout', '30', 'osd', 'new', osdUuid]);
    await run('ceph-osd', [...c, '-i', '0', '--mkfs', '--osd-uuid', osdUuid]);
    children.push(daemon('ceph-osd', [...c, '-i', '0']));
    children.push(daemon('radosgw', [...c, '-n', 'client.rgw', '--no-mon-config']));
    const endpoint = `http://127.0.0.1:${rgwPort}`;
    await waitUntilServing(endpoint, children);
    const accessKeyId = randomBytes(10).toString('hex').toUpperCase();
    const secretAccessKey = randomBytes(20).toString('hex');
    await run('radosgw-admin', [
      ...c,
      'user',
      'create',
      '--uid=cairn',
      '--display-name=Cairn tests',
      `--access-key=${accessKeyId}`,
      `--secret-key=${secretAccessKey}`,
    ]);
    return { endpoint, accessKeyId, secretAccessKey, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

function config(dir: string, fsid: string, monPort: number, rgwPort: number): string {
  return `[global]
fsid = ${fsid}
mon host = v2:127.0.0.1:${monPort}
mon initial members = a
public addr = 127.0.0.1
ms bind ipv6 = false
# One throw-away node on loopback: no keys to hand out.
auth cluster required = none
auth service required = none
auth client required = none
# Daemons otherwise insist on an encrypted session, which needs keys.
ms mon client mode = crc
ms client mode = crc
run dir = ${dir}/run
admin socket = ${dir}/run/$name.asok
pid file = ${dir}/run/$name.pid
log file = ${dir}/log/$name.log
# One OSD holds one copy of everything.
osd pool default size = 1
osd pool default min size = 1
osd pool default pg num = 8
osd pool default pgp num = 8
mon allow pool size one = true
osd crush chooseleaf type = 0
# A monitor stops when its disk is nearly full; a test machine's disk is not its business.
mon data avail crit = 0
# Each pool the gateway makes at its first start is a monitor proposal; the default 1 s batching
# interval doubled the start-up time.
paxos propose interval = 0.01
paxos min wait = 0.001
osd objectstore = memstore
memstore device bytes = 1073741824
[mon.a]
mon data = ${dir}/mon
[osd.0]
osd data = ${dir}/osd
[client.rgw]
rgw frontends = beast endpoint=127.0.0.1:${rgwPort}
rgw data = ${dir}/rgw
`;
}

function daemon(program: string, args: string[]): ChildProcess {
  // Foreground (-f), so the daemon is this process's child and dies with stopRgw.
  const child = spawn(program, [...args, '-f'], { stdio: 'ignore' });
  child.on('error', () => undefined);
  return child;
}

async function waitUntilServing(endpoint: string, children: ChildProcess[]): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    const dead = children.find((c) => c.exitCode !== null || c.signalCode !== null);
    if (dead) throw new Error(`${dead.spawnfile} stopped while the cluster was starting.`);
    try {
      const response = await fetch(endpoint);
      await response.arrayBuffer();
      return;
    } catch {
      if (Date.now() > deadline) throw new Error(`radosgw did not answer on ${endpoint}.`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  // Nothing to keep: a graceful stop only costs time (radosgw lingers for seconds on SIGTERM).
  child.kill('SIGKILL');
  await exited;
}

function onPath(program: string): boolean {
  return (process.env.PATH ?? '')
    .split(':')
    .some((dir) => dir !== '' && existsSync(join(dir, program)));
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('No port.');
  return address.port;
}

/** An S3 client of the gateway's user, path-style as the gateway wants it. */
export function rgwClient(rgw: RgwServer): S3Client {
  return new S3Client({
    endpoint: rgw.endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: rgw.accessKeyId, secretAccessKey: rgw.secretAccessKey },
    forcePathStyle: true,
  });
}

/** Creates `bucket` on the gateway. */
export async function createRgwBucket(rgw: RgwServer, bucket: string): Promise<void> {
  const client = rgwClient(rgw);
  try {
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
  } finally {
    client.destroy();
  }
}

/** The settings that keep Cairn's files in `bucket` on the gateway. */
export function rgwStorageEnv(rgw: RgwServer, bucket: string): Record<string, string> {
  return {
    CAIRN_STORAGE: 's3',
    CAIRN_S3_ENDPOINT: rgw.endpoint,
    CAIRN_S3_BUCKET: bucket,
    CAIRN_S3_ACCESS_KEY_ID: rgw.accessKeyId,
    CAIRN_S3_SECRET_ACCESS_KEY: rgw.secretAccessKey,
    CAIRN_S3_FORCE_PATH_STYLE: 'true',
  };
}
