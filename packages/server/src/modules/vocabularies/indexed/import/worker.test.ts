import { describe, expect, it } from 'vitest';
import { moduleWorker } from '../../../../lib/module-worker.js';
import { unpackItems, type PipelineOptions } from './pipeline.js';
import type { FromWorker, ToWorker } from './worker-protocol.js';

/**
 * The worker on its own, as the importer drives it, for what the importer's tests do not reach:
 * references looked up one batch at a time when their vocabulary was too large to send whole.
 */
async function drive(csv: string, known: Record<string, string>) {
  const workerData: PipelineOptions = { type: 'names', format: 'csv', locale: 'en' };
  const worker = moduleWorker(new URL('./worker.js', import.meta.url), { workerData });
  const post = (message: ToWorker) => worker.postMessage(message);
  const lookups: string[][] = [];
  const batches: Array<Extract<FromWorker, { op: 'batch' }>> = [];
  try {
    await new Promise<void>((resolve, reject) => {
      worker.on('error', reject);
      worker.on('message', (message: FromWorker) => {
        if (message.op === 'lookup') {
          lookups.push(message.ids);
          post({
            op: 'names',
            id: message.id,
            entries: message.ids.flatMap((id) => (known[id] ? [[id, known[id]]] : [])),
          });
        } else if (message.op === 'batch') {
          batches.push(message);
          post({ op: 'written' });
        } else if (message.op === 'done') resolve();
      });
      post({ op: 'bytes', chunk: new TextEncoder().encode(csv) });
      post({ op: 'end' });
    });
  } finally {
    await worker.terminate();
  }
  return { lookups, batches };
}

describe('the import worker', () => {
  it('looks up the referenced ids it has not seen, once each', async () => {
    const csv = [
      'id,orcid,given_names,family_name,affiliations',
      ',0000-0002-1825-0097,Josiah,Carberry,01ggx4157',
      ',0009-0000-0000-0009,Anna,Müller,01ggx4157;Free Text Institute',
      // The rest of the first batch (2,000 records), then a second one that names one more.
      ...Array.from({ length: 2500 }, (_, n) =>
        n < 1998 ? `p${n},,Given,Family,01ggx4157` : `p${n},,Given,Family,01ggx4157;05a28rw58`,
      ),
    ].join('\n');
    const { lookups, batches } = await drive(csv, { '01ggx4157': 'CERN', '05a28rw58': 'ETH' });
    expect(lookups).toEqual([['01ggx4157'], ['05a28rw58']]);
    const items = batches.flatMap((b) => unpackItems(b.rows));
    expect(items).toHaveLength(2502);
    expect(
      items.slice(0, 2).map((i) => JSON.parse(i.data) as Record<string, unknown>),
    ).toMatchObject([
      { id: '0000-0002-1825-0097', affiliations: [{ id: '01ggx4157', name: 'CERN' }] },
      {
        id: '0009-0000-0000-0009',
        affiliations: [{ id: '01ggx4157', name: 'CERN' }, { name: 'Free Text Institute' }],
      },
    ]);
    expect(items[1]!.searchText).toBe(' muller anna cern free text institute ');
    expect(JSON.parse(items[2501]!.data)).toMatchObject({
      affiliations: [
        { id: '01ggx4157', name: 'CERN' },
        { id: '05a28rw58', name: 'ETH' },
      ],
    });
  });

  it('reports an id the lookup does not know, and prepares nothing more', async () => {
    const csv = [
      'orcid,given_names,family_name,affiliations',
      '0000-0002-1825-0097,Josiah,Carberry,0abcdef12',
      '0009-0000-0000-0009,Anna,Müller,',
    ].join('\n');
    const { batches } = await drive(csv, {});
    expect(batches.flatMap((b) => b.problems)).toEqual([
      { line: 2, reason: 'affiliations.0.id: Unknown affiliation 0abcdef12.' },
    ]);
    expect(batches.flatMap((b) => b.rows)).toEqual([]);
  });
});
