import { PassThrough, pipeline, type Readable } from 'node:stream';
import { Busboy, type BusboyInstance } from '@fastify/busboy';
import type { IncomingHttpHeaders } from 'node:http';
import { AppError } from '../errors.js';

/**
 * One part of a multipart/form-data body, in the order the client sent them. A file's `stream`
 * may be abandoned (destroyed) by its reader: `skip` then reads the rest of the part and lets it
 * go, so that the next part can arrive.
 */
export type FormPart =
  | { kind: 'field'; name: string; value: string }
  | { kind: 'file'; name: string; filename: string; stream: Readable; skip: () => Promise<void> };

export interface FormLimits {
  /** Largest text field, in bytes. */
  fieldBytes: number;
  /** Most file parts. */
  files: number;
}

/**
 * The parts of a multipart/form-data body one at a time, each file part's bytes as a stream
 * that must be read (or drained) before the next part arrives: a batch of files is stored as it
 * streams in, never held in memory. Busboy does the parsing; this turns its events into an
 * iterable a route can `for await` over, ending with an error when the body is cut off.
 */
export function formParts(
  headers: IncomingHttpHeaders,
  body: Readable,
  limits: FormLimits,
): AsyncIterable<FormPart> {
  const type = headers['content-type'];
  if (typeof type !== 'string' || !/^multipart\/form-data\s*;/i.test(type)) {
    throw new AppError(
      'UNSUPPORTED_MEDIA_TYPE',
      "Invalid 'Content-Type' header. Expected one of: multipart/form-data",
    );
  }
  let busboy: BusboyInstance;
  try {
    busboy = new Busboy({
      headers: { ...headers, 'content-type': type },
      // Keys are paths ("raw/2024/a.csv") and in UTF-8, as browsers send them.
      preservePath: true,
      defCharset: 'utf8',
      limits: {
        fieldSize: limits.fieldBytes,
        files: limits.files,
        fields: 16,
        parts: 2 * limits.files + 16,
      },
    });
  } catch (error) {
    throw new AppError(
      'VALIDATION_FAILED',
      `The multipart body cannot be read: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const parts = new PassThrough({ objectMode: true });
  /** The file part being read: a body cut off in its middle must end its reader with an error. */
  let current: Readable | undefined;
  const fail = (error: Error) => {
    if (current && !current.readableEnded) current.destroy(error);
    parts.destroy(error);
  };
  busboy.on('field', (name, value, _nameTruncated, valueTruncated) => {
    if (valueTruncated) {
      fail(
        new AppError(
          'VALIDATION_FAILED',
          `The form field ${name} is over ${limits.fieldBytes} bytes.`,
        ),
      );
      return;
    }
    parts.write({ kind: 'field', name, value } satisfies FormPart);
  });
  busboy.on('file', (name, source, filename) => {
    // Busboy waits for every byte of a part to be read before the next: a reader that gives up
    // (a store refusing a file past its size) must not take the parser's own stream down with
    // it, or the request would hang. It reads a copy; the parser's stream errors reach it.
    const stream = source.pipe(new PassThrough());
    source.once('error', (error) => stream.destroy(error));
    current = stream;
    const skip = async () => {
      source.unpipe(stream);
      await drain(source);
    };
    parts.write({ kind: 'file', name, filename, stream, skip } satisfies FormPart);
  });
  busboy.on('filesLimit', () =>
    fail(new AppError('VALIDATION_FAILED', `At most ${limits.files} files a request.`)),
  );
  busboy.on('finish', () => parts.end());
  pipeline(body, busboy, (error) => {
    if (error) fail(error);
  });
  return parts;
}

/** Reads a stream's bytes to the end and lets them go. */
async function drain(stream: Readable): Promise<void> {
  if (stream.readableEnded || stream.destroyed) return;
  stream.resume();
  await new Promise<void>((resolve) => {
    stream.once('end', resolve);
    stream.once('error', () => resolve());
    stream.once('close', resolve);
  });
}
