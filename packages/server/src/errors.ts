import { ERROR_CATALOGUE, type ErrorCode, type ErrorItem } from '@cairn/shared';

/**
 * The one error type services throw. The error-handler plugin turns it into the contract's body:
 * `{status, message, code, errors?}` plus any `extra` keys (e.g. `location` on a 301, `tombstone` on 410).
 */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message?: string,
    readonly errors?: ErrorItem[],
    readonly extra?: Record<string, unknown>,
    readonly headers?: Record<string, string>,
  ) {
    super(message ?? ERROR_CATALOGUE[code].message);
    this.name = 'AppError';
    this.status = ERROR_CATALOGUE[code].status;
  }
}

export const permissionDenied = () => new AppError('PERMISSION_DENIED');
export const pidDoesNotExist = () => new AppError('PID_DOES_NOT_EXIST');
export const validationFailed = (errors: ErrorItem[]) =>
  new AppError('VALIDATION_FAILED', undefined, errors);
