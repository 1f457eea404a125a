import { Select, type ComboboxItem, type ComboboxItemGroup, type SelectProps } from '@mantine/core';
import { useController, type FieldValues } from 'react-hook-form';
import type { FormFieldProps } from './form-field-props';

export type SelectFieldProps<T extends FieldValues> = FormFieldProps<T> & {
  /** The choices, or groups of them under a heading. */
  options: readonly (ComboboxItem | ComboboxItemGroup<ComboboxItem>)[];
} & Omit<
    SelectProps,
    keyof FormFieldProps<T> | 'data' | 'description' | 'value' | 'onChange' | 'error'
  >;

/**
 * A single choice from `options`, stored in the form as the option's value ('' for none). The
 * list opens on click, typing or the arrow keys, not on focus: tabbing through the form or
 * following a link to a field with an error must leave the field and its message in view.
 */
export function SelectField<T extends FieldValues>({
  name,
  label,
  help,
  required,
  rules,
  options,
  ...selectProps
}: SelectFieldProps<T>) {
  // Destructured: the React Compiler lint takes `field` for a ref because it holds one.
  const {
    field: { ref, name: fieldName, value, onChange, onBlur },
    fieldState,
  } = useController<T>({ name, rules });
  return (
    <Select
      openOnFocus={false}
      {...selectProps}
      ref={ref}
      name={fieldName}
      data={options}
      value={typeof value === 'string' && value !== '' ? value : null}
      onChange={(selected) => onChange(selected ?? '')}
      onBlur={onBlur}
      label={label}
      description={help}
      required={required}
      error={fieldState.error?.message}
    />
  );
}
