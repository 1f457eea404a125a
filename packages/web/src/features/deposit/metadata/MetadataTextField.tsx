import { TextInput, type TextInputProps } from '@mantine/core';
import type { DepositFormValues } from '@cairn/shared';
import type { FieldPath } from 'react-hook-form';
import type { z } from 'zod';
import type { FormFieldProps } from '../../../components/form/form-field-props';
import { useTextFieldBinding } from '../../../components/form/useTextFieldBinding';
import { schemaMessage, useBlurValidation } from './useBlurValidation';

export type MetadataTextFieldProps = Omit<FormFieldProps<DepositFormValues>, 'name' | 'rules'> & {
  name: FieldPath<DepositFormValues>;
  /** A shared schema whose message is shown when the field is left with a wrong value. */
  schema?: z.ZodType;
  /** A check that needs more than the value (e.g. the row's scheme); runs after `schema`. */
  check?: (value: string) => string | undefined;
} & Omit<TextInputProps, 'name' | 'label' | 'description' | 'value' | 'onChange' | 'error'>;

/** A text input bound by `name` that checks its value against a shared schema on blur. */
export function MetadataTextField({
  name,
  label,
  help,
  required,
  schema,
  check,
  ...inputProps
}: MetadataTextFieldProps) {
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
      onBlur={(event) => {
        binding.onBlur(event);
        validate(event.currentTarget.value);
      }}
    />
  );
}
