import crypto from 'node:crypto';

const MAX_KEY_BYTES = 1024;
const MAX_SEGMENT_BYTES = 255;

/** NFC, so "é" typed two ways is one key: file names are compared normalised. */
export function normalizeKey(key: string): string {
  return key.normalize('NFC');
}

/** Why a key cannot name a file, or undefined when it can. Keys may hold folders ("a/b.csv"). */
export function keyProblem(key: string): string | undefined {
  if (key.length === 0) return 'Missing data for required field.';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(key)) return 'File names must not contain control characters.';
  if (key.includes('\\')) return 'File names must use "/" between folders, not "\\".';
  const segments = key.split('/');
  if (key.startsWith('/') || segments.some((s) => s === '' || s === '.' || s === '..')) {
    return 'File names must be relative paths without empty, "." or ".." parts.';
  }
  if (Buffer.byteLength(key) > MAX_KEY_BYTES)
    return `File names must be at most ${MAX_KEY_BYTES} bytes long.`;
  if (segments.some((s) => Buffer.byteLength(s) > MAX_SEGMENT_BYTES)) {
    return `Each folder or file name must be at most ${MAX_SEGMENT_BYTES} bytes long.`;
  }
  return undefined;
}

/** Where every byte the files service stores lives in the store (the sweep looks nowhere else). */
export const UPLOADS_PREFIX = 'uploads/';

/**
 * Where a file's bytes go in the store: the init's key for a multipart upload, or a key of its
 * own for each one-request upload attempt and each multipart upload started again.
 */
export function uploadKeyOf(fileId: string, attempt: boolean): string {
  const base = `${UPLOADS_PREFIX}${fileId.slice(0, 2)}/${fileId}`;
  return attempt ? `${base}-${crypto.randomBytes(8).toString('hex')}` : base;
}

/** A key in a URL path: each folder part escaped, the slashes kept. */
export function encodeKey(key: string): string {
  return key.split('/').map(encodeURIComponent).join('/');
}
