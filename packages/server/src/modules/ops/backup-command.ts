import { parseArgs } from 'node:util';
import type { Config } from '../../config.js';
import { BackupError, backup, restore } from './backup.js';

export const BACKUP_USAGE = `  backup DIR                              copy the SQLite database and the stored files into DIR
                                          (new or empty), consistently, also while the server runs
  restore DIR [--force]                   verify the backup in DIR and restore it into
                                          CAIRN_DATA_DIR (empty, or replaced with --force)`;

/** `cairn backup DIR` and `cairn restore DIR [--force]`; returns the exit code. */
export async function backupCommand(
  config: Config,
  command: 'backup' | 'restore',
  args: string[],
): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: command === 'restore' ? { force: { type: 'boolean' } } : {},
  });
  if (positionals.length !== 1) {
    process.stderr.write(`cairn: ${command} needs exactly one DIR\n\nUsage:\n${BACKUP_USAGE}\n`);
    return 2;
  }
  const dir = positionals[0]!;
  const progress = (line: string) => process.stdout.write(`${line}\n`);
  const started = Date.now();
  try {
    if (command === 'backup') {
      const manifest = await backup(config, dir, { progress });
      const { records, drafts, objects, bytes } = manifest.counts;
      progress(
        `Backup written to ${dir}: ${records} records, ${drafts} drafts, ${objects} files (${bytes} bytes) in ${((Date.now() - started) / 1000).toFixed(1)} s`,
      );
    } else {
      const manifest = await restore(config, dir, { force: values.force === true, progress });
      progress(
        `Restored the backup of ${manifest.databaseCopiedAt} into ${config.dataDir}: ${manifest.counts.records} records, ${manifest.counts.objects} files`,
      );
    }
    return 0;
  } catch (error) {
    if (error instanceof BackupError) {
      process.stderr.write(`cairn: ${error.message}\n`);
      return 1;
    }
    throw error;
  }
}
