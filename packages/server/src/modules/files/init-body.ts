import { MULTIPART_MAX_PART, MULTIPART_MAX_PARTS, type ErrorItem } from '@cairn/shared';
import { z } from 'zod';
import { AppError } from '../../errors.js';
import { isRecord } from '../../lib/http.js';
import { keyProblem, normalizeKey } from './file-keys.js';

/** One file of `POST …/draft/files`, checked and normalised. */
export interface InitEntry {
  key: string;
  keyNormalized: string;
  size?: number;
  checksum?: string;
  metadata?: Record<string, unknown>;
  transfer: { type: 'L' | 'M'; parts?: number; partSize?: number };
}

/** S3 refuses a part below 5 MiB, except the last one. */
const S3_MIN_PART = 5 * 1024 * 1024;

const NOT_AN_INTEGER = 'Not a valid integer.';
const BAD_CHECKSUM = 'Checksum must look like md5:<32 hexadecimal digits>.';

/** A size in bytes or a count: a whole number, never negative. */
const wholeNumber = z.int({ error: NOT_AN_INTEGER }).min(0, { error: NOT_AN_INTEGER });

/** InvenioRDM's transfer metadata; its type, parts and part size are checked by the rules below. */
const TransferSchema = z.strictObject(
  {
    type: z.unknown().optional(),
    parts: z.unknown().optional(),
    part_size: z.unknown().optional(),
    url: z.unknown().optional(),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? 'Unknown field.'
        : 'Transfer metadata must be a dictionary.',
  },
);

/**
 * One entry of the body, with InvenioRDM's messages. Unknown fields are refused one by one, as
 * InvenioRDM's schema refuses them; `access` and `storage_class` are accepted and not used.
 */
const EntrySchema = z.strictObject(
  {
    key: z
      .string({
        error: (issue) =>
          issue.input === undefined ? 'Missing data for required field.' : 'Not a valid string.',
      })
      .check((ctx) => {
        const problem = keyProblem(ctx.value);
        if (problem) ctx.issues.push({ code: 'custom', message: problem, input: ctx.value });
      }),
    size: wholeNumber.optional(),
    checksum: z
      .string({ error: BAD_CHECKSUM })
      .regex(/^md5:[0-9a-f]{32}$/i, { error: BAD_CHECKSUM })
      .optional(),
    metadata: z.record(z.string(), z.unknown(), { error: 'Not a valid mapping type.' }).optional(),
    access: z.unknown().optional(),
    storage_class: z.unknown().optional(),
    transfer: TransferSchema.optional(),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys' ? 'Unknown field.' : 'Invalid input type.',
  },
);

/** Zod's issues as the contract's field errors, `{index}.{path}`; one per unknown field. */
function fieldErrors(index: number, issues: readonly z.core.$ZodIssue[]): ErrorItem[] {
  return issues.flatMap((issue) => {
    const path = [index, ...issue.path].map(String);
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({
        field: [...path, key].join('.'),
        messages: [issue.message],
      }));
    }
    if (issue.path.length === 0) path.push('_schema');
    return [{ field: path.join('.'), messages: [issue.message] }];
  });
}

interface Context {
  isAdmin: boolean;
  storeKind: string;
}

/**
 * The transfer type and, for a multipart upload, its parts: the rules that depend on each other
 * and on the store. A multipart upload without a size, or without a part size on local storage,
 * is refused as a whole (`failure`), as InvenioRDM raises those; the rest name their field.
 */
function transferRules(
  size: unknown,
  t: Record<string, unknown>,
  at: (field: string, message: string) => void,
  context: Context,
): { transfer?: InitEntry['transfer']; failure?: string } {
  const type = t.type ?? 'L';
  if (type === 'F' || type === 'R') {
    if (!context.isAdmin)
      throw new AppError(
        'PERMISSION_DENIED',
        `Transfer type ${type} is reserved to administrators.`,
      );
    at('transfer.type', `Transfer type ${type} is not supported by this repository; use L or M.`);
    return {};
  }
  if (type !== 'L' && type !== 'M') {
    const shown = typeof type === 'string' ? type : JSON.stringify(type);
    at(
      'transfer.type',
      `Unsupported transfer type ${shown}; use L (one request) or M (multipart).`,
    );
    return {};
  }
  if (type === 'L') return { transfer: { type } };

  let failure: string | undefined;
  const declared = wholeNumber.safeParse(size);
  const parts = wholeNumber.min(1).max(MULTIPART_MAX_PARTS).safeParse(t.parts);
  const partSize = wholeNumber.min(1).max(MULTIPART_MAX_PART).safeParse(t.part_size);
  if (size === undefined) failure = 'Multipart file transfer requires file size.';
  if (t.parts === undefined) at('transfer.parts', 'Multipart file transfer requires parts.');
  else if (!parts.success)
    at('transfer.parts', `Parts must be a whole number from 1 to ${MULTIPART_MAX_PARTS}.`);
  if (t.part_size === undefined) {
    if (context.storeKind === 'local')
      failure ??= 'Multipart file transfer to local storage requires part_size.';
  } else if (!partSize.success) {
    at(
      'transfer.part_size',
      `part_size must be a whole number of bytes from 1 to ${MULTIPART_MAX_PART}.`,
    );
  }
  if (!declared.success || !parts.success)
    return { transfer: { type }, ...(failure ? { failure } : {}) };
  const bytes = declared.data;
  const count = parts.data;
  const each = partSize.success ? partSize.data : Math.ceil(bytes / count);
  if (each * count < bytes || (count > 1 && each * (count - 1) >= bytes)) {
    at(
      'transfer.part_size',
      `${count} parts of ${each} bytes do not add up to a file of ${bytes} bytes.`,
    );
  } else if (context.storeKind === 's3' && count > 1 && each < S3_MIN_PART) {
    at(
      'transfer.part_size',
      `Parts must be at least ${S3_MIN_PART} bytes (except the last) with this storage.`,
    );
  }
  return { transfer: { type, parts: count, partSize: each }, ...(failure ? { failure } : {}) };
}

function fail(message: string, errors?: ErrorItem[]): AppError {
  return new AppError('VALIDATION_FAILED', message, errors);
}

/**
 * The body of `POST …/draft/files`: every problem of every entry is listed at once, and nothing is
 * created unless all entries are sound.
 */
export function parseInitBody(body: unknown, context: Context): InitEntry[] {
  if (!Array.isArray(body))
    throw fail('A validation error occurred.', [
      { field: '0._schema', messages: ['Invalid input type.'] },
    ]);
  if (body.length === 0) throw fail('No files to upload.');
  const errors: ErrorItem[] = [];
  let failure: string | undefined;
  const entries = body.map((raw: unknown, index): InitEntry | undefined => {
    const parsed = EntrySchema.safeParse(raw);
    if (!parsed.success) errors.push(...fieldErrors(index, parsed.error.issues));
    // The transfer rules speak whenever the transfer is a dictionary, so that one answer lists
    // their problems beside those of the other fields.
    if (!isRecord(raw)) return undefined;
    const transfer = raw.transfer ?? {};
    if (!isRecord(transfer)) return undefined;
    const rules = transferRules(
      raw.size,
      transfer,
      (field, message) => errors.push({ field: `${index}.${field}`, messages: [message] }),
      context,
    );
    failure ??= rules.failure;
    if (!parsed.success || !rules.transfer) return undefined;
    const { key, size, checksum, metadata } = parsed.data;
    return {
      key,
      keyNormalized: normalizeKey(key),
      ...(size !== undefined ? { size } : {}),
      ...(checksum !== undefined ? { checksum: checksum.toLowerCase() } : {}),
      ...(metadata !== undefined ? { metadata } : {}),
      transfer: rules.transfer,
    };
  });
  if (errors.length > 0) throw fail('A validation error occurred.', errors);
  if (failure) throw fail(failure);
  return entries.filter((entry) => entry !== undefined);
}
