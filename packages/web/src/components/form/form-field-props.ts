import type { ReactNode } from 'react';
import type { FieldValues, Path, UseControllerProps } from 'react-hook-form';

/** The one props contract of every form-aware field (STYLE.md). */
export interface FormFieldProps<T extends FieldValues> {
  /** The field's path in the form values, e.g. `metadata.title`. */
  name: Path<T>;
  label: string;
  /** A hint shown under the label and announced with the input. */
  help?: ReactNode;
  /** Marks the field as required; the value is still checked by `rules` or by the server. */
  required?: boolean;
  rules?: UseControllerProps<T>['rules'];
}
