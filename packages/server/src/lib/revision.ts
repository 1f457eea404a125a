import { AppError } from '../errors.js';

/** `If-Match` read as InvenioRDM reads it (a bare integer), tolerating the quoted ETag form. */
function parseIfMatch(header: string | undefined): number | undefined {
  if (header === undefined || header === '') return undefined;
  const m = /^\s*(?:W\/)?"?(\d+)"?\s*$/.exec(header);
  if (!m) {
    throw new AppError('VALIDATION_FAILED', undefined, [
      { field: 'if_match', messages: ['Not a valid integer.'] },
    ]);
  }
  return Number(m[1]);
}

/** 412 with the contract's message when `If-Match` names another revision; no header, no check. */
export function checkRevision(ifMatch: string | undefined, current: number): void {
  const expected = parseIfMatch(ifMatch);
  if (expected !== undefined && expected !== current) {
    throw new AppError(
      'REVISION_MISMATCH',
      `Revision id provided(${expected}) doesn't match record's one(${current})`,
    );
  }
}
