import { GetBucketCorsCommand, PutBucketCorsCommand } from '@aws-sdk/client-s3';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  RGW_START_TIMEOUT_MS,
  createBucket,
  rgwClient,
  s3Environment,
  startRgw,
  type RgwServer,
} from '../../../test/ceph-rgw.js';
import { runCairn } from '../../../test/server-process.js';

const SITE = 'https://data.example.org';

// `cairn storage check|setup`, run as operators run it, against Ceph's S3. The browser side of
// what setup puts in place is proven by e2e/uploader-s3.test.ts, whose bucket it sets up.
describe('cairn storage check and setup on Ceph RGW', () => {
  let rgw: RgwServer;
  let dataDir: string;

  beforeAll(async () => {
    rgw = await startRgw();
    dataDir = await mkdtemp(join(tmpdir(), 'cairn-storage-'));
  }, RGW_START_TIMEOUT_MS);

  afterAll(async () => {
    await rgw?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  const storage = (args: string[], bucket: string, env: Record<string, string> = {}) =>
    runCairn(['storage', ...args], {
      CAIRN_DATA_DIR: dataDir,
      CAIRN_SITE_URL: SITE,
      ...s3Environment(rgw, bucket),
      ...env,
    });

  async function corsRules(bucket: string) {
    const client = rgwClient(rgw);
    try {
      return (await client.send(new GetBucketCorsCommand({ Bucket: bucket }))).CORSRules ?? [];
    } finally {
      client.destroy();
    }
  }

  it('finds a missing bucket, sets it up, and then finds nothing missing', async () => {
    const missing = await storage(['check'], 'cairn-fresh');
    expect(missing.code).toBe(1);
    expect(missing.stdout).toContain(
      'PROBLEM The bucket "cairn-fresh" does not exist. Create it with `npx cairn storage setup`.',
    );

    const setup = await storage(['setup'], 'cairn-fresh');
    expect(setup.code, setup.stdout + setup.stderr).toBe(0);
    expect(setup.stdout).toContain('Created the bucket "cairn-fresh".');
    expect(setup.stdout).toContain(`Added a CORS rule letting ${SITE} PUT parts`);
    expect(setup.stdout).toContain(
      'Added a lifecycle rule aborting uploads left incomplete for 7 days.',
    );
    expect(await corsRules('cairn-fresh')).toEqual([
      expect.objectContaining({
        AllowedOrigins: [SITE],
        AllowedMethods: expect.arrayContaining(['GET', 'PUT']),
        ExposeHeaders: ['ETag'],
      }),
    ]);

    const check = await storage(['check'], 'cairn-fresh');
    expect(check.code, check.stdout).toBe(0);
    expect(check.stdout).toContain('ok      Objects can be written, read and deleted.');
    expect(check.stdout).toContain(
      `ok      The CORS rules let ${SITE} upload parts and read ETag.`,
    );
    expect(check.stdout).not.toMatch(/PROBLEM|advice/);

    // Setting up again changes nothing.
    const again = await storage(['setup'], 'cairn-fresh');
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`The CORS rules already let ${SITE} upload.`);
    expect(await corsRules('cairn-fresh')).toHaveLength(1);
  });

  it('names what a CORS rule lacks, and setup adds one beside the bucket’s own rules', async () => {
    await createBucket(rgw, 'cairn-cors');
    const client = rgwClient(rgw);
    try {
      // Another site's rule, and one for this site that hides the ETag a part's upload needs.
      await client.send(
        new PutBucketCorsCommand({
          Bucket: 'cairn-cors',
          CORSConfiguration: {
            CORSRules: [
              { AllowedOrigins: ['https://other.example.org'], AllowedMethods: ['GET'] },
              { AllowedOrigins: [SITE], AllowedMethods: ['GET', 'PUT'], AllowedHeaders: ['*'] },
            ],
          },
        }),
      );
    } finally {
      client.destroy();
    }
    const check = await storage(['check'], 'cairn-cors');
    expect(check.code).toBe(1);
    expect(check.stdout).toContain(`PROBLEM No CORS rule lets ${SITE} upload`);
    expect(check.stdout).toContain('ExposeHeaders ETag');

    expect((await storage(['setup'], 'cairn-cors')).code).toBe(0);
    const rules = await corsRules('cairn-cors');
    expect(rules.map((r) => r.AllowedOrigins)).toEqual([
      ['https://other.example.org'],
      [SITE],
      [SITE],
    ]);
    expect((await storage(['check'], 'cairn-cors')).code).toBe(0);
    // A site on another origin is not covered by this one's rule.
    const elsewhere = await storage(['check'], 'cairn-cors', {
      CAIRN_SITE_URL: 'https://elsewhere.example.org',
    });
    expect(elsewhere.code).toBe(1);
    expect(elsewhere.stdout).toContain('No CORS rule lets https://elsewhere.example.org upload');
  });

  it('says plainly when the credentials are refused, and that local storage needs nothing', async () => {
    await createBucket(rgw, 'cairn-keys');
    const refused = await storage(['check'], 'cairn-keys', {
      CAIRN_S3_SECRET_ACCESS_KEY: 'not-the-secret',
    });
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain('PROBLEM The bucket "cairn-keys" refuses these credentials');

    const local = await runCairn(['storage', 'check'], { CAIRN_DATA_DIR: dataDir });
    expect(local.code).toBe(0);
    expect(local.stdout).toContain('Files are kept on this machine');

    const usage = await storage(['sweep'], 'cairn-keys');
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain('storage check');
  });
});
