import type { FieldPath, UseFormSetError } from 'react-hook-form';
import type { FieldError } from '../../api/records';
import type { DepositFormValues } from './serializer';

type DepositFieldPath = FieldPath<DepositFormValues>;

const CREATOR_INPUT =
  /^metadata\.creators\.\d+\.person_or_org\.(type|family_name|given_name|name)$/;

/**
 * The form input that shows a server error on `field`, or undefined when the form has no such
 * input (the banner lists those). Form paths equal API paths except where the form flattens a
 * value (`resource_type` holds the id) or has no input for a sub-field (a creator's
 * affiliations: shown on the creators list).
 */
export function toFormPath(field: string): DepositFieldPath | undefined {
  if (field === 'metadata.title' || field === 'metadata.publication_date') return field;
  if (field === 'metadata.resource_type' || field.startsWith('metadata.resource_type.')) {
    return 'metadata.resource_type';
  }
  if (CREATOR_INPUT.test(field)) return field as DepositFieldPath;
  if (field === 'metadata.creators' || field.startsWith('metadata.creators.')) {
    return 'metadata.creators';
  }
  return undefined;
}

/** Puts server errors under their inputs (InvenioRDM joins a field's messages with a space). */
export function applyFieldErrors(
  setError: UseFormSetError<DepositFormValues>,
  errors: readonly FieldError[],
): void {
  const messagesByPath = new Map<DepositFieldPath, string[]>();
  for (const error of errors) {
    const path = toFormPath(error.field);
    if (path) messagesByPath.set(path, [...(messagesByPath.get(path) ?? []), ...error.messages]);
  }
  for (const [path, messages] of messagesByPath) {
    setError(path, { type: 'server', message: messages.join(' ') });
  }
}

/**
 * Whether errors stop publishing. Curation checks may send warnings and hints (`severity`
 * other than `error`) that do not block (reference §1.0).
 */
export function hasBlockingErrors(errors: readonly FieldError[] | undefined): boolean {
  return (errors ?? []).some((error) => !error.severity || error.severity === 'error');
}
