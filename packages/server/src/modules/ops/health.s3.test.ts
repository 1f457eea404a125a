import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  RGW_START_TIMEOUT_MS,
  createBucket,
  startRgw,
  type RgwServer,
} from '../../test/ceph-rgw.js';
import { ENGINES } from '../../test/databases.js';
import { createTestApp, type TestApp } from '../../test/app.js';

const BUCKET = 'cairn-health';

// Readiness on CAIRN_STORAGE=s3 against Ceph's S3: 200 while the gateway answers, 503 naming the
// store once it is stopped, on every engine.
describe('health with the S3 store', () => {
  let rgw: RgwServer | undefined;
  const apps = new Map<string, TestApp>();

  beforeAll(async () => {
    rgw = await startRgw();
    await createBucket(rgw, BUCKET);
    for (const engine of ENGINES) {
      apps.set(
        engine,
        await createTestApp(engine, {
          CAIRN_STORAGE: 's3',
          CAIRN_S3_ENDPOINT: rgw.endpoint,
          CAIRN_S3_BUCKET: BUCKET,
          CAIRN_S3_ACCESS_KEY_ID: rgw.accessKeyId,
          CAIRN_S3_SECRET_ACCESS_KEY: rgw.secretAccessKey,
          CAIRN_S3_FORCE_PATH_STYLE: 'true',
        }),
      );
    }
  }, RGW_START_TIMEOUT_MS);

  afterAll(async () => {
    for (const t of apps.values()) await t.close();
    await rgw?.stop();
  });

  const ready = async (t: TestApp) => {
    const res = await t.request({ method: 'GET', url: '/api/health/ready' });
    return { status: res.statusCode, body: res.json(), text: res.body };
  };

  it('answers 200 while the gateway answers, and 503 naming the store once it is stopped', async () => {
    for (const [engine, t] of apps) expect((await ready(t)).status, engine).toBe(200);
    await rgw!.stop();
    const secret = [...apps.values()][0]!.config.storage;
    for (const [engine, t] of apps) {
      const { status, body, text } = await ready(t);
      expect(status, engine).toBe(503);
      expect(body.checks.database, engine).toEqual({ status: 'ok' });
      expect(body.checks.store.status, engine).toBe('error');
      expect(body.checks.store.error, engine).toMatch(/ECONNREFUSED|no answer within/);
      if (secret.kind === 's3') expect(text).not.toContain(secret.secretAccessKey);
    }
  });
});
