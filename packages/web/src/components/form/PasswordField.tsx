import { PasswordInput, type PasswordInputProps } from '@mantine/core';
import type { FieldValues } from 'react-hook-form';
import type { FormFieldProps } from './form-field-props';
import { useTextFieldBinding } from './useTextFieldBinding';

export type PasswordFieldProps<T extends FieldValues> = FormFieldProps<T> &
  Omit<
    PasswordInputProps,
    keyof FormFieldProps<T> | 'description' | 'value' | 'onChange' | 'error'
  >;

/** A password input (with a show/hide toggle) bound to the surrounding form by `name`. */
export function PasswordField<T extends FieldValues>({
  name,
  label,
  help,
  required,
  rules,
  ...inputProps
}: PasswordFieldProps<T>) {
  const binding = useTextFieldBinding<T>({ name, label, help, required, rules });
  return <PasswordInput {...inputProps} {...binding} />;
}
