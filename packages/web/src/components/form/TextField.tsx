import { TextInput, type TextInputProps } from '@mantine/core';
import { useController, type FieldValues } from 'react-hook-form';
import type { FormFieldProps } from './form-field-props';

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
  // Destructured: the React Compiler lint takes `field` for a ref because it holds one.
  const {
    field: { ref, name: fieldName, value, onChange, onBlur },
    fieldState,
  } = useController<T>({ name, rules });
  return (
    <TextInput
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
