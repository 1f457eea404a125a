import { Textarea, TextInput, type TextInputProps } from '@mantine/core';
import type { DepositFormValues } from '@cairn/shared';
import type { FieldPath } from 'react-hook-form';
import type { z } from 'zod';
import type { FormFieldProps } from '../../../components/form/form-field-props';
import { useTextFieldBinding } from '../../../components/form/useTextFieldBinding';
import { schemaMessage, useBlurValidation } from './useBlurValidation';
import './wrapping-field.css';

export type MetadataTextFieldProps = Omit<FormFieldProps<DepositFormValues>, 'name' | 'rules'> & {
  name: FieldPath<DepositFormValues>;
  /** A shared schema whose message is shown when the field is left with a wrong value. */
  schema?: z.ZodType;
  /** A check that needs more than the value (e.g. the row's scheme); runs after `schema`. */
  check?: (value: string) => string | undefined;
  /**
   * One line of text that wraps instead of scrolling sideways (a long title stays in view as a
   * whole while it is typed): line breaks typed or pasted become spaces, and Enter submits the
   * form as it does in a text input.
   */
  wraps?: boolean;
} & Omit<TextInputProps, 'name' | 'label' | 'description' | 'value' | 'onChange' | 'error'>;

/** A text input bound by `name` that checks its value against a shared schema on blur. */
export function MetadataTextField({
  name,
  label,
  help,
  required,
  schema,
  check,
  wraps = false,
  ...inputProps
}: MetadataTextFieldProps) {
  const binding = useTextFieldBinding<DepositFormValues>({ name, label, help, required });
  const validate = useBlurValidation(
    name,
    (value) => (schema ? schemaMessage(schema, value) : undefined) ?? check?.(value),
  );
  if (wraps) {
    return (
      <Textarea
        rows={2}
        classNames={{ input: 'cairn-wrapping-field' }}
        autoComplete="off"
        {...binding}
        onChange={(event) => {
          const value = oneLine(event.currentTarget.value);
          binding.onChange(value);
          validate.onChange(value);
        }}
        onKeyDown={(event) => {
          if (event.key !== 'Enter') return;
          event.preventDefault();
          event.currentTarget.form?.requestSubmit();
        }}
        onBlur={(event) => {
          binding.onBlur(event);
          validate.onBlur(event.currentTarget.value);
        }}
      />
    );
  }
  return (
    <TextInput
      autoComplete="off"
      {...inputProps}
      {...binding}
      onChange={(event) => {
        binding.onChange(event);
        validate.onChange(event.currentTarget.value);
      }}
      onBlur={(event) => {
        binding.onBlur(event);
        validate.onBlur(event.currentTarget.value);
      }}
    />
  );
}

/** The text with each run of line breaks made one space, as a single-line field holds it. */
function oneLine(value: string): string {
  return value.replace(/[\r\n]+/g, ' ');
}
