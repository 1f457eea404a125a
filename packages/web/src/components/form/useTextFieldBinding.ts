import type { ChangeEvent, FocusEventHandler, ReactNode } from 'react';
import { useController, type FieldValues, type RefCallBack } from 'react-hook-form';
import type { FormFieldProps } from './form-field-props';

/** The props a Mantine text-like input (or text area) needs to show and edit one form field. */
export interface TextFieldBinding {
  ref: RefCallBack;
  name: string;
  value: string;
  /** Takes the input's change event, or the value itself when the caller has reworked it. */
  onChange: (change: ChangeEvent<HTMLInputElement | HTMLTextAreaElement> | string) => void;
  onBlur: FocusEventHandler<HTMLInputElement | HTMLTextAreaElement>;
  label: string;
  description: ReactNode;
  required: boolean | undefined;
  error: string | undefined;
}

/**
 * Binds a text-like input (text, password) to the surrounding form by `name`: its value, its
 * change and blur handlers, and that field's error shown under it.
 */
export function useTextFieldBinding<T extends FieldValues>({
  name,
  label,
  help,
  required,
  rules,
}: FormFieldProps<T>): TextFieldBinding {
  // Destructured: the React Compiler lint takes `field` for a ref because it holds one.
  const {
    field: { ref, name: fieldName, value, onChange, onBlur },
    fieldState,
  } = useController<T>({ name, rules });
  return {
    ref,
    name: fieldName,
    value: typeof value === 'string' ? value : '',
    onChange,
    onBlur,
    label,
    description: help,
    required,
    error: fieldState.error?.message,
  };
}
