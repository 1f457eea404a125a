import type { FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { ApiError } from '../../api/client';

export interface ServerErrorOptions<T extends FieldValues> {
  /** The inputs of the form; errors on other fields are reported above the form. */
  fields: readonly Path<T>[];
  /** The field an `EMAIL_TAKEN` answer is about (signup's email address). */
  takenField?: Path<T>;
  /** What to say when the server gave no reason (network failure, HTML error page). */
  fallbackMessage: string;
}

/**
 * Puts a form's server-side field errors under the matching inputs and returns the message for the
 * top of the form, or null when every error found its field.
 */
export function applyServerErrors<T extends FieldValues>(
  setError: UseFormSetError<T>,
  error: unknown,
  { fields, takenField, fallbackMessage }: ServerErrorOptions<T>,
): string | null {
  if (!(error instanceof ApiError)) {
    console.error(error);
    return fallbackMessage;
  }
  const serverMessage = error.hasServerMessage ? error.message : fallbackMessage;
  if (error.code === 'EMAIL_TAKEN' && takenField && !error.errors?.length) {
    setError(takenField, { type: 'server', message: serverMessage });
    return null;
  }
  const elsewhere: string[] = [];
  for (const fieldError of error.errors ?? []) {
    const field = fields.find((name) => name === fieldError.field);
    if (field) setError(field, { type: 'server', message: fieldError.messages.join(' ') });
    else elsewhere.push(...fieldError.messages);
  }
  if (elsewhere.length > 0) return elsewhere.join(' ');
  return error.errors?.length ? null : serverMessage;
}
