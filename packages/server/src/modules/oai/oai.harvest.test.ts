import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../../test/databases.js';
import { PUBLISHABLE_METADATA } from '../../test/files.js';
import {
  callApi,
  createProcessDatabase,
  processUser,
  startServerProcess,
  tempDataDir,
  type ServerProcess,
} from '../../test/server-process.js';

const START_TIMEOUT_MS = 120_000;

/**
 * What HTTP::OAI's harvester (Debian's libhttp-oai-perl, `oai_pmh`) prints for a list request:
 * it follows the resumption tokens itself and writes each record's header fields, the records
 * apart by form feeds. A harvester Cairn did not write is the judge of the protocol here.
 */
function harvestWithHttpOai(baseUrl: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('oai_pmh', [...args, `${baseUrl}/oai2d`], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) =>
      code === 0 ? resolve(out) : reject(new Error(`oai_pmh exited ${code}: ${err}`)),
    );
  });
}

/** The identifiers of the records `oai_pmh` printed; each record's fields start after a form feed. */
function identifiersIn(output: string): string[] {
  return [...output.matchAll(/(?:^|\f)identifier: (\S+)$/gm)].map((m) => m[1]!);
}

async function pageOf(base: string, query: string) {
  const res = await callApi(base, 'GET', `/oai2d?${query}`, {});
  expect(res.status).toBe(200);
  const ids = [...res.text.matchAll(/<identifier>([^<]+)<\/identifier>/g)].map((m) => m[1]!);
  const token = /<resumptionToken[^>]*>([^<]*)<\/resumptionToken>/.exec(res.text)?.[1];
  return { ids, token };
}

describe.each(ENGINES)('OAI-PMH harvests over HTTP (%s)', (engine) => {
  const servers: ServerProcess[] = [];
  const cleanups: Array<() => Promise<void>> = [];
  let env: Record<string, string>;
  let expected: string[];

  beforeAll(async () => {
    const data = await tempDataDir();
    cleanups.push(data.remove);
    env = { CAIRN_DATA_DIR: data.dir, CAIRN_OAI_PAGE_SIZE: '2' };
    if (engine === 'postgres') {
      const database = await createProcessDatabase();
      cleanups.push(database.drop);
      env.DATABASE_URL = database.url;
    }
    servers.push(await startServerProcess(env));
    const base = servers[0]!.url;
    const person = await processUser(env);
    const ids: string[] = [];
    for (const [i, access] of ['public', 'public', 'public', 'restricted'].entries()) {
      const created = await callApi(base, 'POST', '/api/records', person.headers, {
        metadata: { ...PUBLISHABLE_METADATA, title: `Harvested record ${i}` },
        files: { enabled: false },
        access: { record: access, files: access },
      });
      expect(created.status, created.text).toBe(201);
      const id = created.json().id as string;
      const published = await callApi(
        base,
        'POST',
        `/api/records/${id}/draft/actions/publish`,
        person.headers,
      );
      expect(published.status, published.text).toBe(202);
      ids.push(id);
    }
    // The demo record a fresh database starts with is published too.
    const listed = await callApi(base, 'GET', '/api/records?size=100', {});
    const demo = (listed.json().hits.hits as Array<{ id: string }>).map((h) => h.id);
    const host = new URL(base).hostname;
    expected = [...new Set([...demo, ...ids])].map((id) => `oai:${host}:${id}`).sort();
  }, START_TIMEOUT_MS);

  afterAll(async () => {
    for (const server of servers) await server.kill();
    for (const cleanup of cleanups) await cleanup();
  });

  it('is harvested whole by HTTP::OAI, records and identifiers, through resumption tokens', async () => {
    const base = servers[0]!.url;
    const records = await harvestWithHttpOai(base, [
      '-X',
      'ListRecords',
      '--metadataPrefix',
      'oai_dc',
    ]);
    expect(identifiersIn(records).sort()).toEqual(expected);
    expect(records).toContain('<dc:title>Harvested record 0</dc:title>');
    expect(records).not.toContain('Harvested record 3');
    const headers = await harvestWithHttpOai(base, [
      '-X',
      'ListIdentifiers',
      '--metadataPrefix',
      'oai_dc',
    ]);
    expect(identifiersIn(headers).sort()).toEqual(expected);
  });

  it(
    engine === 'postgres'
      ? 'continues a harvest on another server process sharing the database'
      : 'continues a harvest after the server is restarted',
    async () => {
      let page = await pageOf(servers[0]!.url, 'verb=ListIdentifiers&metadataPrefix=oai_dc');
      const ids = [...page.ids];
      if (engine === 'postgres') {
        servers.push(await startServerProcess(env));
      } else {
        await servers[0]!.kill();
        servers[0] = await startServerProcess(env);
      }
      for (let n = 1; page.token; n++) {
        const base = servers[n % servers.length]!.url;
        page = await pageOf(base, `verb=ListIdentifiers&resumptionToken=${page.token}`);
        ids.push(...page.ids);
      }
      expect(ids.sort()).toEqual(expected);
    },
    START_TIMEOUT_MS,
  );
});
