import { PasswordInput, type PasswordInputProps } from '@mantine/core';
import { useController, type FieldValues } from 'react-hook-form';
import type { FormFieldProps } from './form-field-props';

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
  // Destructured: the React Compiler lint takes `field` for a ref because it holds one.
  const {
    field: { ref, name: fieldName, value, onChange, onBlur },
    fieldState,
  } = useController<T>({ name, rules });
  return (
    <PasswordInput
      {...inputProps}
      ref={ref}
      name={fieldName}
      value={typeof value === 'string' ? value : ''}
      onChange={onChange}
      onBlur={onBlur}
      label={label}
      description={help}
      required={required}
      error={fieldState.error?.message}
    />
  );
}
