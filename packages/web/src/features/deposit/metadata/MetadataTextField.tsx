import { Textarea, TextInput, type TextInputProps } from '@mantine/core';
import type { DepositFormValues } from '@cairn/shared';
import {
  useFormContext,
  useFormState,
  type FieldPath,
  type UseFormRegisterReturn,
} from 'react-hook-form';
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
export function MetadataTextField({ wraps = false, ...props }: MetadataTextFieldProps) {
  return wraps ? <WrappingTextField {...props} /> : <LineTextField {...props} />;
}

function LineTextField({
  name,
  label,
  help,
  required,
  schema,
  check,
  ...inputProps
}: Omit<MetadataTextFieldProps, 'wraps'>) {
  const binding = useTextFieldBinding<DepositFormValues>({ name, label, help, required });
  const validate = useBlurValidation(
    name,
    (value) => (schema ? schemaMessage(schema, value) : undefined) ?? check?.(value),
  );
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

/**
 * The wrapping field, left to the browser while it is typed in (registered, not controlled): a
 * controlled text area re-renders and rewrites its whole text into the DOM twice (value and
 * default value) on every keystroke, which the title, typed in most, need not pay. React Hook
 * Form still gets every change, and sets the text itself when the form is reset (a restored
 * journal, the other tab's version).
 */
function WrappingTextField({
  name,
  label,
  help,
  required,
  schema,
  check,
}: Omit<MetadataTextFieldProps, 'wraps'>) {
  const { register, getFieldState } = useFormContext<DepositFormValues>();
  // Destructured: the React Compiler lint takes the registration for a ref because it holds one.
  const { ref, name: fieldName, onChange, onBlur }: UseFormRegisterReturn = register(name);
  const error = getFieldState(name, useFormState<DepositFormValues>({ name, exact: true })).error;
  const text: unknown = error?.message;
  const message = typeof text === 'string' ? text : undefined;
  const validate = useBlurValidation(
    name,
    (value) => (schema ? schemaMessage(schema, value) : undefined) ?? check?.(value),
  );
  return (
    <Textarea
      rows={2}
      classNames={{ input: 'cairn-wrapping-field' }}
      autoComplete="off"
      name={fieldName}
      ref={ref}
      label={label}
      description={help}
      required={required}
      error={message}
      onChange={(event) => {
        const input = event.currentTarget;
        const value = oneLine(input.value);
        if (value !== input.value) {
          // Where the line break was typed or pasted, the caret stays.
          const caret = input.selectionStart - (input.value.length - value.length);
          input.value = value;
          input.setSelectionRange(caret, caret);
        }
        void onChange(event);
        validate.onChange(value);
      }}
      onKeyDown={(event) => {
        if (event.key !== 'Enter') return;
        event.preventDefault();
        event.currentTarget.form?.requestSubmit();
      }}
      onBlur={(event) => {
        void onBlur(event);
        validate.onBlur(event.currentTarget.value);
      }}
    />
  );
}

/** The text with each run of line breaks made one space, as a single-line field holds it. */
function oneLine(value: string): string {
  return value.replace(/[\r\n]+/g, ' ');
}
