import { Group, Radio, type RadioGroupProps } from '@mantine/core';
import { useController, type FieldValues } from 'react-hook-form';
import type { FormFieldProps } from './form-field-props';

export interface RadioOption {
  value: string;
  label: string;
}

export type RadioGroupFieldProps<T extends FieldValues> = FormFieldProps<T> & {
  options: readonly RadioOption[];
} & Omit<
    RadioGroupProps,
    keyof FormFieldProps<T> | 'children' | 'description' | 'value' | 'onChange' | 'error'
  >;

/** One of a few `options` as radio buttons; arrow keys move between them. */
export function RadioGroupField<T extends FieldValues>({
  name,
  label,
  help,
  required,
  rules,
  options,
  ...groupProps
}: RadioGroupFieldProps<T>) {
  const {
    field: { name: fieldName, value, onChange, onBlur },
    fieldState,
  } = useController<T>({ name, rules });
  return (
    <Radio.Group
      {...groupProps}
      name={fieldName}
      value={typeof value === 'string' ? value : ''}
      onChange={onChange}
      label={label}
      description={help}
      required={required}
      error={fieldState.error?.message}
    >
      <Group mt="xs">
        {options.map((option) => (
          <Radio key={option.value} value={option.value} label={option.label} onBlur={onBlur} />
        ))}
      </Group>
    </Radio.Group>
  );
}
