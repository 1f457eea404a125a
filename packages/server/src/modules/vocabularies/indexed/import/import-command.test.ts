import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../../test/app.js';
import { runImportCommand } from './import-command.js';

/** What a terminal (or a pipe) would have been sent. */
function screen(isTTY: boolean) {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  Object.assign(stream, { isTTY });
  return { stream: stream as unknown as NodeJS.WriteStream, text: () => chunks.join('') };
}

describe('cairn vocabularies import on a terminal', () => {
  let t: TestApp;
  let dir: string;
  let file: string;
  beforeAll(async () => {
    t = await createTestApp('sqlite');
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-import-command-'));
    file = path.join(dir, 'subjects.csv');
    const rows = Array.from({ length: 5000 }, (_, i) => `s-${i},Subject ${i},Test`);
    fs.writeFileSync(file, `id,subject,scheme\n${rows.join('\n')}\n`);
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('draws a progress bar over one line and ends it with the whole file read', async () => {
    const tty = screen(true);
    const result = await runImportCommand(
      t.services.vocabularyItems,
      'subjects',
      file,
      'en',
      tty.stream,
    );
    expect(result).toMatchObject({ records: 5000, inserted: 5000 });
    const out = tty.text();
    // Every redraw returns to the start of the line; only the last one ends it.
    expect(out.startsWith('\r')).toBe(true);
    expect(out.endsWith('\n')).toBe(true);
    expect(out.slice(0, -1)).not.toContain('\n');
    const frames = out.slice(1, -1).split('\r');
    for (const frame of frames) {
      expect(frame).toMatch(/^subjects \[#*\.*\] +\d+% {2}[\d,]+ records {2}\d+\.\d MB\/s$/);
      expect(frame.slice(frame.indexOf('[') + 1, frame.indexOf(']'))).toHaveLength(30);
    }
    expect(frames.at(-1)).toMatch(/^subjects \[#{30}\] 100% {2}5,000 records {2}\d+\.\d MB\/s$/);
  });

  it('draws nothing when its output is not a terminal', async () => {
    const pipe = screen(false);
    const result = await runImportCommand(
      t.services.vocabularyItems,
      'subjects',
      file,
      'en',
      pipe.stream,
    );
    expect(result).toMatchObject({ records: 5000, unchanged: 5000 });
    expect(pipe.text()).toBe('');
  });
});
