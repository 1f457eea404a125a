import { PassThrough, pipeline, type Readable } from 'node:stream';
import { Busboy, type BusboyInstance } from '@fastify/busboy';
import type { IncomingHttpHeaders } from 'node:http';
import { AppError } from '../errors.js';

/** One part of a multipart/form-data body, in the order the client sent them. */
export type FormPart =
  | { kind: 'field'; name: string; value: string }
  | { kind: 'file'; name: string; filename: string; stream: Readable };

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
  busboy.on('file', (name, stream, filename) => {
    current = stream;
    parts.write({ kind: 'file', name, filename, stream } satisfies FormPart);
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

/** Reads a part's bytes to the end and lets them go, so that the next part can arrive. */
export async function drain(stream: Readable): Promise<void> {
  if (stream.readableEnded || stream.destroyed) return;
  stream.resume();
  await new Promise<void>((resolve) => {
    stream.once('end', resolve);
    stream.once('error', () => resolve());
    stream.once('close', resolve);
  });
}
