import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { csvObjects, csvRows, jsonItems, SourceSyntaxError } from './readers.js';

/** The text cut into chunks of `size` bytes, as a file stream would deliver it. */
function chunks(text: string, size: number) {
  const bytes = Buffer.from(text, 'utf8');
  const parts: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) parts.push(bytes.subarray(i, i + size));
  return Readable.from(parts);
}

async function all<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

const CHUNK_SIZES = [1, 2, 3, 7, 64, 1 << 20];

describe('csvRows', () => {
  const text = '\uFEFFid,name\r\n1,"Müller, Anna"\r\n\r\n2,"say ""hi""\nnext line"\n3,plain\n4,"é"';
  it.each(CHUNK_SIZES)(
    'parses quotes, CRLF, blank lines and multi-line fields (chunks of %i)',
    async (size) => {
      expect(await all(csvRows(chunks(text, size)))).toEqual([
        { line: 1, value: ['id', 'name'] },
        { line: 2, value: ['1', 'Müller, Anna'] },
        { line: 4, value: ['2', 'say "hi"\nnext line'] },
        { line: 6, value: ['3', 'plain'] },
        { line: 7, value: ['4', 'é'] },
      ]);
    },
  );

  it('reports an unclosed quote with the line it opens on', async () => {
    const error = await all(csvRows(chunks('a,b\n1,"open\n2,3\n', 4))).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SourceSyntaxError);
    expect(error).toMatchObject({ line: 2, message: 'A quoted field is not closed.' });
  });

  it('reports text after a closing quote and a quote inside a field', async () => {
    await expect(all(csvRows(chunks('"a"b\n', 2)))).rejects.toMatchObject({
      line: 1,
      message: 'Unexpected character after a closing quote.',
    });
    await expect(all(csvRows(chunks('x\nab"c\n', 2)))).rejects.toMatchObject({
      line: 2,
      message: 'A quote inside an unquoted field.',
    });
  });
});

describe('csvObjects', () => {
  it('keys rows by the header, trims, drops empty values', async () => {
    const rows = await all(csvObjects(chunks('ID, Subject ,scheme\nx, Y ,\n', 3)));
    expect(rows).toEqual([{ line: 2, value: { id: 'x', subject: 'Y' } }]);
  });

  it('refuses a row with the wrong number of fields, naming the line', async () => {
    await expect(all(csvObjects(chunks('a,b\n1,2\n3\n', 5)))).rejects.toMatchObject({
      line: 3,
      message: 'Expected 2 fields as in the header, found 1.',
    });
  });
});

describe('jsonItems', () => {
  const array = '[\n {"a": "x]}\\"{"},\n {"b": [1, {"c": 2}]}\n]\n';
  it.each(CHUNK_SIZES)('streams a top-level array (chunks of %i)', async (size) => {
    expect(await all(jsonItems(chunks(array, size)))).toEqual([
      { line: 2, value: { a: 'x]}"{' } },
      { line: 3, value: { b: [1, { c: 2 }] } },
    ]);
  });

  it.each(CHUNK_SIZES)('streams JSON Lines (chunks of %i)', async (size) => {
    const lines = '{"a":1}\n\n{"b":"ü"}\n{"c":3}';
    expect(await all(jsonItems(chunks(lines, size)))).toEqual([
      { line: 1, value: { a: 1 } },
      { line: 3, value: { b: 'ü' } },
      { line: 4, value: { c: 3 } },
    ]);
  });

  it('reports invalid JSON, a truncated array and stray values with their lines', async () => {
    await expect(all(jsonItems(chunks('[{"a":1},\n{"a":}]', 4)))).rejects.toMatchObject({
      line: 2,
    });
    await expect(all(jsonItems(chunks('[{"a":1},\n{"a":2}', 4)))).rejects.toMatchObject({
      line: 2,
      message: 'The file ends inside the array.',
    });
    await expect(all(jsonItems(chunks('[1, 2]', 4)))).rejects.toMatchObject({
      message: 'Expected an object in the array.',
    });
    await expect(all(jsonItems(chunks('{"a":1}\n{oops}\n', 4)))).rejects.toMatchObject({
      line: 2,
    });
    await expect(all(jsonItems(chunks('[{"a":1}] x', 4)))).rejects.toMatchObject({
      message: 'Text after the closing bracket.',
    });
  });

  it('reads an empty file as no items', async () => {
    expect(await all(jsonItems(chunks('  \n', 1)))).toEqual([]);
    expect(await all(jsonItems(chunks('[]', 1)))).toEqual([]);
  });
});
