import fs from 'node:fs';
import type { VocabularyItemsService } from '../items.service.js';
import { INDEXED_TYPES, isIndexedType } from '../kinds.js';
import { importVocabulary, type ImportResult } from './importer.js';
import { formatOf } from './sources.js';

/** The command was asked for something it cannot do; nothing was read. */
export class ImportUsageError extends Error {}

const BAR_WIDTH = 30;
const REDRAW_MS = 200;

/** A terminal progress line: bar, percentage of bytes read, records, throughput. */
function progressLine(type: string, done: number, total: number, records: number, ms: number) {
  const share = total > 0 ? Math.min(1, done / total) : 0;
  const filled = Math.round(share * BAR_WIDTH);
  const rate = ms > 0 ? done / 1e6 / (ms / 1000) : 0;
  return `${type} [${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}] ${(share * 100).toFixed(0).padStart(3)}%  ${records.toLocaleString('en')} records  ${rate.toFixed(1)} MB/s`;
}

/** The file's bytes, counted as they are read. */
async function* counted(file: string, onBytes: (n: number) => void) {
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 1 << 20 })) {
    onBytes((chunk as Buffer).length);
    yield chunk as Buffer;
  }
}

/**
 * `cairn vocabularies import TYPE FILE`: streams the dump into the vocabulary, drawing a
 * progress bar when stderr is a terminal. Throws ImportFailed (nothing stored) on bad records.
 */
export async function runImportCommand(
  items: VocabularyItemsService,
  type: string,
  file: string,
  locale: string,
  stderr: NodeJS.WriteStream = process.stderr,
): Promise<ImportResult & { ms: number }> {
  if (!isIndexedType(type)) {
    throw new ImportUsageError(`unknown vocabulary "${type}"; one of: ${INDEXED_TYPES.join(', ')}`);
  }
  if (!fs.existsSync(file)) throw new ImportUsageError(`no such file: ${file}`);
  const size = fs.statSync(file).size;
  const detected = formatOf(type, file);
  if ('problem' in detected) throw new ImportUsageError(detected.problem);
  const { format } = detected;
  const started = Date.now();
  let bytes = 0;
  let records = 0;
  let drawn = 0;
  const draw = (force = false) => {
    if (!stderr.isTTY) return;
    const now = Date.now();
    if (!force && now - drawn < REDRAW_MS) return;
    drawn = now;
    stderr.write(`\r${progressLine(type, bytes, size, records, now - started)}`);
  };
  const result = await importVocabulary(
    items,
    type,
    counted(file, (n) => {
      bytes += n;
      draw();
    }),
    {
      format,
      locale,
      onBatch: (n) => {
        records = n;
        draw();
      },
    },
  ).finally(() => {
    draw(true);
    if (stderr.isTTY) stderr.write('\n');
  });
  return { ...result, ms: Date.now() - started };
}
