import { StringDecoder } from 'node:string_decoder';

/** One record of a dump, with the line it starts on (1-based) for error reports. */
export interface SourceRecord<T> {
  line: number;
  value: T;
}

/** A malformed file: where, and what is wrong. */
export class SourceSyntaxError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
    this.name = 'SourceSyntaxError';
  }
}

/** Decodes a byte stream as UTF-8 chunks, dropping a leading byte-order mark. */
async function* textChunks(bytes: AsyncIterable<Buffer | string>): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  let first = true;
  for await (const chunk of bytes) {
    let text = typeof chunk === 'string' ? chunk : decoder.write(chunk);
    if (first && text !== '') {
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      first = false;
    }
    if (text !== '') yield text;
  }
  const rest = decoder.end();
  if (rest !== '') yield rest;
}

const QUOTE = 34;
const COMMA = 44;
const CR = 13;
const LF = 10;

/**
 * RFC 4180 CSV, streamed: quoted fields may hold commas, doubled quotes and line breaks. Yields
 * each row's fields with the line the row starts on; blank lines are skipped.
 */
export async function* csvRows(
  bytes: AsyncIterable<Buffer | string>,
): AsyncGenerator<SourceRecord<string[]>> {
  let field = '';
  let row: string[] = [];
  let quoted = false;
  // After a closing quote: only a quote (escaped quote), a comma or a line end may follow.
  let afterQuote = false;
  let line = 1;
  let rowLine = 1;
  let pendingCr = false;
  const endRow = (): SourceRecord<string[]> | undefined => {
    row.push(field);
    const done = row;
    row = [];
    field = '';
    const start = rowLine;
    rowLine = line;
    return done.length === 1 && done[0] === '' ? undefined : { line: start, value: done };
  };
  for await (const text of textChunks(bytes)) {
    let i = 0;
    const n = text.length;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (pendingCr) {
        pendingCr = false;
        if (c === LF) {
          i++;
          continue;
        }
      }
      if (quoted) {
        const next = text.indexOf('"', i);
        if (next === -1) {
          const part = text.slice(i);
          line += countLines(part);
          field += part;
          break;
        }
        const part = text.slice(i, next);
        line += countLines(part);
        field += part;
        quoted = false;
        afterQuote = true;
        i = next + 1;
        continue;
      }
      if (afterQuote) {
        afterQuote = false;
        if (c === QUOTE) {
          field += '"';
          quoted = true;
          i++;
          continue;
        }
        if (c !== COMMA && c !== CR && c !== LF) {
          throw new SourceSyntaxError(line, 'Unexpected character after a closing quote.');
        }
      }
      if (c === QUOTE) {
        if (field !== '') throw new SourceSyntaxError(line, 'A quote inside an unquoted field.');
        quoted = true;
        i++;
      } else if (c === COMMA) {
        row.push(field);
        field = '';
        i++;
      } else if (c === CR || c === LF) {
        line++;
        pendingCr = c === CR;
        const done = endRow();
        if (done) yield done;
        i++;
      } else {
        let j = i + 1;
        while (j < n) {
          const d = text.charCodeAt(j);
          if (d === COMMA || d === CR || d === LF || d === QUOTE) break;
          j++;
        }
        field += text.slice(i, j);
        i = j;
      }
    }
  }
  if (quoted) throw new SourceSyntaxError(rowLine, 'A quoted field is not closed.');
  const last = endRow();
  if (last) yield last;
}

function countLines(text: string): number {
  let count = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) count++;
  return count;
}

/**
 * CSV rows as objects keyed by the header row's names (trimmed, lower case). A row with a
 * different number of fields than the header is an error of that line.
 */
export async function* csvObjects(
  bytes: AsyncIterable<Buffer | string>,
): AsyncGenerator<SourceRecord<Record<string, string>>> {
  let header: string[] | undefined;
  for await (const { line, value } of csvRows(bytes)) {
    if (!header) {
      header = value.map((h) => h.trim().toLowerCase());
      continue;
    }
    if (value.length !== header.length) {
      throw new SourceSyntaxError(
        line,
        `Expected ${header.length} fields as in the header, found ${value.length}.`,
      );
    }
    const record: Record<string, string> = {};
    header.forEach((name, i) => {
      const v = value[i]!.trim();
      if (v !== '') record[name] = v;
    });
    yield { line, value: record };
  }
}

const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const BACKSLASH = 92;

function parseItem(text: string, line: number): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new SourceSyntaxError(line, `Invalid JSON: ${(error as Error).message}`);
  }
}

/**
 * The items of a JSON dump, streamed: either one top-level array (ROR's dumps) or JSON Lines.
 * Only one item's text is held at a time, so a gigabyte dump needs megabytes.
 */
export async function* jsonItems(
  bytes: AsyncIterable<Buffer | string>,
): AsyncGenerator<SourceRecord<unknown>> {
  let mode: 'unknown' | 'array' | 'lines' | 'done' = 'unknown';
  let depth = 0;
  let inString = false;
  let escaped = false;
  let item = '';
  let itemLine = 0;
  let line = 1;
  // Lines mode collects one line at a time.
  let pending = '';
  let pendingLine = 1;
  function* completeLines(): Generator<SourceRecord<unknown>> {
    let nl: number;
    while ((nl = pending.indexOf('\n')) !== -1) {
      const one = pending.slice(0, nl).trim();
      pending = pending.slice(nl + 1);
      if (one !== '') yield { line: pendingLine, value: parseItem(one, pendingLine) };
      pendingLine++;
    }
  }
  for await (const text of textChunks(bytes)) {
    if (mode === 'lines') {
      pending += text;
      yield* completeLines();
      continue;
    }
    let i = 0;
    let itemStart = -1;
    const n = text.length;
    if (mode === 'unknown') {
      const first = text.search(/\S/);
      if (first === -1) {
        line += countLines(text);
        continue;
      }
      line += countLines(text.slice(0, first));
      if (text.charCodeAt(first) === OPEN_BRACKET) {
        mode = 'array';
        i = first + 1;
      } else {
        mode = 'lines';
        pending = text.slice(first);
        pendingLine = line;
        yield* completeLines();
        continue;
      }
    }
    if (mode === 'done') {
      if (/\S/.test(text)) throw new SourceSyntaxError(line, 'Text after the closing bracket.');
      continue;
    }
    if (depth > 0) itemStart = i;
    for (; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c === LF) line++;
      if (inString) {
        if (escaped) escaped = false;
        else if (c === BACKSLASH) escaped = true;
        else if (c === QUOTE) inString = false;
        continue;
      }
      if (c === QUOTE) {
        inString = true;
        if (depth === 0) throw new SourceSyntaxError(line, 'Expected an object in the array.');
      } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
        if (depth === 0) {
          itemStart = i;
          itemLine = line;
          item = '';
        }
        depth++;
      } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
        if (depth === 0) {
          if (c === CLOSE_BRACKET) {
            mode = 'done';
            if (/\S/.test(text.slice(i + 1))) {
              throw new SourceSyntaxError(line, 'Text after the closing bracket.');
            }
            break;
          }
          throw new SourceSyntaxError(line, 'Unbalanced closing brace.');
        }
        depth--;
        if (depth === 0) {
          item += text.slice(itemStart, i + 1);
          itemStart = -1;
          yield { line: itemLine, value: parseItem(item, itemLine) };
          item = '';
        }
      } else if (depth === 0 && c !== COMMA && c !== 32 && c !== LF && c !== CR && c !== 9) {
        throw new SourceSyntaxError(line, 'Expected an object in the array.');
      }
    }
    if (depth > 0 && itemStart !== -1) item += text.slice(itemStart);
  }
  if (mode === 'lines') {
    const one = pending.trim();
    if (one !== '') yield { line: pendingLine, value: parseItem(one, pendingLine) };
  } else if (mode === 'array') {
    throw new SourceSyntaxError(line, 'The file ends inside the array.');
  }
}
