import { useFormContext, type FieldPath } from 'react-hook-form';
import type { DepositFormValues } from '@cairn/shared';
import type { z } from 'zod';

/** The error type of messages the form found itself, so a later blur may clear them again. */
const BLUR_ERROR = 'blur';

/**
 * The first message `schema` gives for a non-empty `value`, else undefined. Empty values pass:
 * whether a field is required is decided by the server at publish, a draft may be incomplete.
 */
export function schemaMessage(schema: z.ZodType, value: unknown): string | undefined {
  if (value === '' || value === undefined || value === null) return undefined;
  const result = schema.safeParse(value);
  return result.success ? undefined : result.error.issues[0]?.message;
}

/**
 * Handlers that check a field with `check` in the browser, instead of after a save (InvenioRDM
 * checks nothing in the browser): `onBlur` shows the message when the field is
 * left; `onChange` checks again while a message of its own is shown, so a correction clears it as
 * it is typed instead of at the next blur. They clear only messages they set themselves: a server
 * message stays until the next save answers.
 */
export function useBlurValidation(
  name: FieldPath<DepositFormValues>,
  check: (value: string) => string | undefined,
): { onBlur: (value: string) => void; onChange: (value: string) => void } {
  const { setError, clearErrors, getFieldState } = useFormContext<DepositFormValues>();
  const validate = (value: string) => {
    const message = check(value);
    if (message !== undefined) setError(name, { type: BLUR_ERROR, message });
    else if (getFieldState(name).error?.type === BLUR_ERROR) clearErrors(name);
  };
  return {
    onBlur: validate,
    onChange: (value) => {
      if (getFieldState(name).error?.type === BLUR_ERROR) validate(value);
    },
  };
}
