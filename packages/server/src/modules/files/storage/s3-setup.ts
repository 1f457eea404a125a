import { createHash, randomUUID } from 'node:crypto';
import {
  CreateBucketCommand,
  DeleteObjectCommand,
  GetBucketCorsCommand,
  GetBucketLifecycleConfigurationCommand,
  GetObjectCommand,
  HeadBucketCommand,
  PutBucketCorsCommand,
  PutBucketLifecycleConfigurationCommand,
  PutObjectCommand,
  S3Client,
  type CORSRule,
  type LifecycleRule,
} from '@aws-sdk/client-s3';
import { s3ClientConfig, type S3FileStoreOptions } from './s3-file-store.js';

/**
 * What a bucket needs before Cairn can keep files in it, checked (`cairn storage check`, and at
 * start) and, where the credentials allow, put in place (`cairn storage setup`). Browsers send
 * upload parts straight to the bucket through presigned URLs, from the site's origin: without a
 * CORS rule that lets that origin PUT and read the part's ETag, every upload fails in the browser
 * with nothing on the server to say why, so the check names the rule that is missing.
 */

/** One thing checked: fine, a problem that breaks uploads or downloads, or advice. */
export interface StorageFinding {
  level: 'ok' | 'problem' | 'advice';
  message: string;
}

/** Headers the uploader sends with a part; the bucket's CORS rule must allow them. */
const PART_HEADERS = ['content-md5', 'content-type'];
/** Days after which an upload nobody completed is aborted by the bucket's lifecycle rule. */
const ABORT_AFTER_DAYS = 7;
const RULE_ID = 'cairn-abort-incomplete-uploads';

/** Checks the bucket: it exists and answers these credentials, takes and returns an object, and
 * lets browsers on `siteOrigin` send parts to it. */
export async function checkS3Storage(
  options: S3FileStoreOptions,
  siteOrigin: string,
): Promise<StorageFinding[]> {
  const client = new S3Client(s3ClientConfig(options, options.endpoint));
  try {
    const bucket = options.bucket;
    const reached = await bucketState(client, bucket);
    if (reached !== 'ok') return [{ level: 'problem', message: reached }];
    const findings: StorageFinding[] = [
      { level: 'ok', message: `The bucket "${bucket}" exists and answers these credentials.` },
      await roundTrip(client, bucket),
      corsFinding(await corsRules(client, bucket), siteOrigin),
      lifecycleFinding(await lifecycleRules(client, bucket)),
    ];
    return findings;
  } finally {
    client.destroy();
  }
}

/**
 * Creates the bucket if it is missing, adds a CORS rule for `siteOrigin` if none lets it upload
 * (keeping the bucket's other rules), and a lifecycle rule aborting forgotten uploads if there is
 * none; returns what it did, line by line. A store that refuses the lifecycle rule gets advice,
 * not a failure: uploads work without it.
 */
export async function setupS3Storage(
  options: S3FileStoreOptions,
  siteOrigin: string,
): Promise<StorageFinding[]> {
  const client = new S3Client(s3ClientConfig(options, options.endpoint));
  const bucket = options.bucket;
  const done: StorageFinding[] = [];
  try {
    if ((await bucketState(client, bucket)) !== 'ok') {
      await client.send(new CreateBucketCommand({ Bucket: bucket }));
      done.push({ level: 'ok', message: `Created the bucket "${bucket}".` });
    }
    const rules = await corsRules(client, bucket);
    if (corsFinding(rules, siteOrigin).level === 'ok') {
      done.push({ level: 'ok', message: `The CORS rules already let ${siteOrigin} upload.` });
    } else {
      await client.send(
        new PutBucketCorsCommand({
          Bucket: bucket,
          CORSConfiguration: { CORSRules: [...(rules ?? []), corsRuleFor(siteOrigin)] },
        }),
      );
      done.push({
        level: 'ok',
        message: `Added a CORS rule letting ${siteOrigin} PUT parts, GET files and read ETag.`,
      });
    }
    const lifecycle = await lifecycleRules(client, bucket);
    if (lifecycleFinding(lifecycle).level === 'ok') {
      done.push({ level: 'ok', message: 'A lifecycle rule already aborts forgotten uploads.' });
    } else {
      try {
        await client.send(
          new PutBucketLifecycleConfigurationCommand({
            Bucket: bucket,
            LifecycleConfiguration: { Rules: [...(lifecycle ?? []), abortRule()] },
          }),
        );
        done.push({
          level: 'ok',
          message: `Added a lifecycle rule aborting uploads left incomplete for ${ABORT_AFTER_DAYS} days.`,
        });
      } catch (error) {
        done.push({
          level: 'advice',
          message: `The store refused a lifecycle rule (${errorName(error)}); Cairn's own sweep still removes forgotten uploads.`,
        });
      }
    }
    return done;
  } finally {
    client.destroy();
  }
}

/** 'ok', or what is wrong with reaching the bucket. */
async function bucketState(client: S3Client, bucket: string): Promise<string> {
  try {
    await client.send(new HeadBucketCommand({ Bucket: bucket }));
    return 'ok';
  } catch (error) {
    const status = httpStatus(error);
    if (status === 404)
      return `The bucket "${bucket}" does not exist. Create it with \`npx cairn storage setup\`.`;
    if (status === 403)
      return `The bucket "${bucket}" refuses these credentials (403): check CAIRN_S3_ACCESS_KEY_ID, CAIRN_S3_SECRET_ACCESS_KEY and the bucket's policy.`;
    return `The bucket "${bucket}" cannot be reached: ${errorName(error)}. Check CAIRN_S3_ENDPOINT and CAIRN_S3_REGION.`;
  }
}

/** Writes, reads back and deletes a small object: the rights Cairn needs on every file. */
async function roundTrip(client: S3Client, bucket: string): Promise<StorageFinding> {
  const key = `.cairn-storage-check/${randomUUID()}`;
  const body = Buffer.from(`cairn storage check ${new Date().toISOString()}\n`);
  let step = 'write';
  try {
    await client.send(
      new PutObjectCommand({
        Bucket: bucket,
        Key: key,
        Body: body,
        ContentMD5: createHash('md5').update(body).digest('base64'),
      }),
    );
    step = 'read';
    const got = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    const read = Buffer.from((await got.Body?.transformToByteArray()) ?? []);
    if (!read.equals(body))
      return { level: 'problem', message: 'An object read back differs from what was written.' };
    step = 'delete';
    await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }));
    return { level: 'ok', message: 'Objects can be written, read and deleted.' };
  } catch (error) {
    return {
      level: 'problem',
      message: `Could not ${step} an object (${errorName(error)}): the credentials need PutObject, GetObject and DeleteObject on the bucket.`,
    };
  }
}

async function corsRules(client: S3Client, bucket: string): Promise<CORSRule[] | undefined> {
  try {
    return (await client.send(new GetBucketCorsCommand({ Bucket: bucket }))).CORSRules ?? [];
  } catch (error) {
    if (errorName(error) === 'NoSuchCORSConfiguration' || httpStatus(error) === 404) return [];
    return undefined;
  }
}

function corsFinding(rules: CORSRule[] | undefined, siteOrigin: string): StorageFinding {
  if (rules === undefined)
    return {
      level: 'problem',
      message:
        "The bucket's CORS rules cannot be read with these credentials (GetBucketCors); browsers can only upload if a rule lets the site's origin PUT.",
    };
  const fits = (rule: CORSRule) =>
    (rule.AllowedOrigins ?? []).some((o) => wildcardMatch(o, siteOrigin)) &&
    ['PUT', 'GET'].every((m) => (rule.AllowedMethods ?? []).some((a) => a.toUpperCase() === m)) &&
    PART_HEADERS.every((h) => (rule.AllowedHeaders ?? []).some((a) => wildcardMatch(a, h))) &&
    (rule.ExposeHeaders ?? []).some((e) => e.toLowerCase() === 'etag');
  if (rules.some(fits))
    return { level: 'ok', message: `The CORS rules let ${siteOrigin} upload parts and read ETag.` };
  return {
    level: 'problem',
    message:
      `No CORS rule lets ${siteOrigin} upload: one needs AllowedOrigins ${siteOrigin}, ` +
      `AllowedMethods GET and PUT, AllowedHeaders Content-MD5 and Content-Type (or *) and ` +
      'ExposeHeaders ETag. `npx cairn storage setup` adds it.',
  };
}

function corsRuleFor(siteOrigin: string): CORSRule {
  return {
    AllowedOrigins: [siteOrigin],
    AllowedMethods: ['GET', 'PUT', 'HEAD'],
    AllowedHeaders: ['*'],
    ExposeHeaders: ['ETag'],
    MaxAgeSeconds: 3000,
  };
}

async function lifecycleRules(
  client: S3Client,
  bucket: string,
): Promise<LifecycleRule[] | undefined> {
  try {
    const answer = await client.send(
      new GetBucketLifecycleConfigurationCommand({ Bucket: bucket }),
    );
    return answer.Rules ?? [];
  } catch (error) {
    if (errorName(error) === 'NoSuchLifecycleConfiguration' || httpStatus(error) === 404) return [];
    return undefined;
  }
}

function lifecycleFinding(rules: LifecycleRule[] | undefined): StorageFinding {
  const aborts = (rules ?? []).some(
    (r) => r.Status === 'Enabled' && r.AbortIncompleteMultipartUpload?.DaysAfterInitiation,
  );
  return aborts
    ? { level: 'ok', message: 'A lifecycle rule aborts forgotten uploads.' }
    : {
        level: 'advice',
        message:
          'No lifecycle rule aborts incomplete multipart uploads; Cairn sweeps its own, and a rule is a second net (`npx cairn storage setup` adds one).',
      };
}

function abortRule(): LifecycleRule {
  return {
    ID: RULE_ID,
    Status: 'Enabled',
    Filter: { Prefix: '' },
    AbortIncompleteMultipartUpload: { DaysAfterInitiation: ABORT_AFTER_DAYS },
  };
}

/** S3's pattern rule for origins and headers: case-insensitive, at most one `*` for any run. */
function wildcardMatch(pattern: string, value: string): boolean {
  const escaped = pattern
    .toLowerCase()
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${escaped.join('.*')}$`).test(value.toLowerCase());
}

function httpStatus(error: unknown): number | undefined {
  return (error as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode;
}

function errorName(error: unknown): string {
  return error instanceof Error ? error.name || error.message : String(error);
}
