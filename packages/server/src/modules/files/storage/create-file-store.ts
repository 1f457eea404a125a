import type { Config } from '../../../config.js';
import type { FileStore } from './file-store.js';
import { LocalFileStore } from './local-file-store.js';
import { S3FileStore, type S3FileStoreOptions } from './s3-file-store.js';

type S3Storage = Extract<Config['storage'], { kind: 's3' }>;

/** The configured store: a folder under the data directory, or an S3-compatible bucket. */
export function createFileStore(config: Config): FileStore {
  const s = config.storage;
  if (s.kind === 'local') return new LocalFileStore({ root: s.root });
  return new S3FileStore(s3StoreOptions(s));
}

/** The S3 store's options from the configuration. */
export function s3StoreOptions(s: S3Storage): S3FileStoreOptions {
  return {
    ...(s.endpoint ? { endpoint: s.endpoint } : {}),
    ...(s.publicEndpoint ? { publicEndpoint: s.publicEndpoint } : {}),
    region: s.region,
    bucket: s.bucket,
    accessKeyId: s.accessKeyId,
    secretAccessKey: s.secretAccessKey,
    forcePathStyle: s.forcePathStyle,
  };
}
