import { TextInput, type TextInputProps } from '@mantine/core';
import type { FieldValues } from 'react-hook-form';
import type { FormFieldProps } from './form-field-props';
import { useTextFieldBinding } from './useTextFieldBinding';

export type TextFieldProps<T extends FieldValues> = FormFieldProps<T> &
  Omit<TextInputProps, keyof FormFieldProps<T> | 'description' | 'value' | 'onChange' | 'error'>;

/** A text input bound to the surrounding form by `name`; shows that field's error under it. */
export function TextField<T extends FieldValues>({
  name,
  label,
  help,
  required,
  rules,
  ...inputProps
}: TextFieldProps<T>) {
  const binding = useTextFieldBinding<T>({ name, label, help, required, rules });
  return <TextInput {...inputProps} {...binding} />;
}
