import type { Config } from '../../../config.js';
import { s3StoreOptions } from './create-file-store.js';
import { checkS3Storage, setupS3Storage, type StorageFinding } from './s3-setup.js';

export const STORAGE_USAGE = `  storage check                           check the S3 bucket: exists, takes objects, CORS for
                                          the site's uploads (exit 1 when something is missing)
  storage setup                           create the bucket and its CORS and lifecycle rules,
                                          where the credentials allow`;

const LABEL: Record<StorageFinding['level'], string> = {
  ok: 'ok      ',
  problem: 'PROBLEM ',
  advice: 'advice  ',
};

/** `cairn storage check|setup`; returns the exit code. */
export async function storageCommand(config: Config, sub: string | undefined): Promise<number> {
  if (sub !== 'check' && sub !== 'setup') {
    process.stderr.write(`Usage:\n${STORAGE_USAGE}\n`);
    return 2;
  }
  const storage = config.storage;
  if (storage.kind === 'local') {
    process.stdout.write(
      `Files are kept on this machine, in ${storage.root}; there is no bucket to ${sub}. ` +
        'Set CAIRN_STORAGE=s3 and the CAIRN_S3_* variables to keep them in a bucket.\n',
    );
    return 0;
  }
  const origin = new URL(config.siteUrl).origin;
  const findings = await (sub === 'check' ? checkS3Storage : setupS3Storage)(
    s3StoreOptions(storage),
    origin,
  );
  for (const f of findings) process.stdout.write(`${LABEL[f.level]}${f.message}\n`);
  return findings.some((f) => f.level === 'problem') ? 1 : 0;
}

/** The same check at start, written to the log: a server with a broken bucket says so at once. */
export async function logStorageCheck(
  config: Config,
  log: { warn(message: string): void; info(message: string): void },
): Promise<void> {
  if (config.storage.kind !== 's3') return;
  try {
    const findings = await checkS3Storage(
      s3StoreOptions(config.storage),
      new URL(config.siteUrl).origin,
    );
    for (const f of findings) if (f.level !== 'ok') log.warn(`storage: ${f.message}`);
    if (findings.every((f) => f.level === 'ok')) log.info('storage: the bucket is ready');
  } catch (error) {
    log.warn(
      `storage: the check failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
