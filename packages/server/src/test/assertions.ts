import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { ErrorCode, ErrorItem } from '@cairn/shared';

/** The whole error body: status, Cairn's code and the contract's exact message, nothing else. */
export function expectError(
  res: LightMyRequestResponse,
  status: number,
  code: ErrorCode,
  message: string,
): void {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.json()).toEqual({ status, code, message });
}

/** A 400 "A validation error occurred." listing exactly `errors`. */
export function expectValidationFailed(res: LightMyRequestResponse, errors: ErrorItem[]): void {
  expect(res.statusCode, res.body).toBe(400);
  expect(res.json()).toEqual({
    status: 400,
    code: 'VALIDATION_FAILED',
    message: 'A validation error occurred.',
    errors,
  });
}
