import {
  groupErrorsByFormPath,
  type DepositFormValues,
  type ServerFieldError,
} from '@cairn/shared';
import type { FieldPath, UseFormSetError } from 'react-hook-form';

/**
 * Puts server errors on the form, grouped by form path. Every path is set, also those without an
 * input of their own (a creator's affiliations, a file setting): the widget owning the path reads
 * it with `getFieldState`, and the banner lists the ones no section claims. The severity travels in
 * the error's `type` (`server-warning`, `server-info`; `server` for errors) so widgets can style
 * hints apart from errors.
 */
export function applyFieldErrors(
  setError: UseFormSetError<DepositFormValues>,
  errors: readonly ServerFieldError[],
): void {
  for (const [path, feedback] of groupErrorsByFormPath(errors)) {
    const type =
      feedback.severity && feedback.severity !== 'error' ? `server-${feedback.severity}` : 'server';
    setError(path as FieldPath<DepositFormValues>, { type, message: feedback.message });
  }
}
