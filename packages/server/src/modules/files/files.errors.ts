import type { ErrorItem } from '@cairn/shared';
import { AppError } from '../../errors.js';
import { FileStoreError } from './storage/file-store.js';
import type { FileRow } from './files.repository.js';

// The files endpoints' refusals, shared by the service's parts so that each says it alike.

export function fail(message: string, errors?: ErrorItem[]): AppError {
  return new AppError('VALIDATION_FAILED', message, errors);
}

export function tooLargeMessage(key: string): string {
  return `File size limit exceeded: ${key} is larger than announced or than this record's remaining quota.`;
}

export function notFound(key: string): AppError {
  return new AppError('NOT_FOUND', `File with key ${key} not found.`);
}

/** Why content cannot be sent to a file that is no longer pending. */
export function notPending(row: FileRow): AppError {
  return row.status === 'committing'
    ? new AppError(
        'CONFLICT',
        `File with key "${row.key}" is being committed; its content can no longer change.`,
      )
    : fail(`File with key "${row.key}" is already committed.`);
}

export function assertPending(row: FileRow): void {
  if (row.status !== 'pending') throw notPending(row);
}

/** A store's refusal of the caller's bytes, as the files contract answers it; anything else is rethrown. */
export function storeFailure(error: unknown, key: string): never {
  if (error instanceof FileStoreError) {
    switch (error.reason) {
      case 'too-large':
        throw fail(tooLargeMessage(key));
      case 'size-mismatch':
        throw fail(error.message);
      case 'checksum-mismatch':
        throw fail(
          'The Content-MD5 of the part does not match the bytes received; the part was discarded.',
        );
      case 'aborted':
        throw fail('The file upload transfer failed, please try again.');
      case 'missing-parts':
        throw fail(error.message);
      case 'not-found':
        throw new AppError('NOT_FOUND', error.message);
    }
  }
  throw error;
}
