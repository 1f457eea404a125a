import type { DepositFormValues } from '@cairn/shared';
import type { ReactNode } from 'react';
import { useFieldArray, useFormContext, type ArrayPath, type FieldArray } from 'react-hook-form';
import { ListFieldset } from './ListFieldset';
import { ListRow } from './ListRow';
import { ListRowActions } from './ListRowActions';

export interface RepeatableFieldProps<N extends ArrayPath<DepositFormValues>> {
  /** The list's path, e.g. `metadata.dates`. */
  name: N;
  legend: string;
  help?: ReactNode;
  addLabel: string;
  /** The values of a row added by the add button. */
  newRow: () => FieldArray<DepositFormValues, N>;
  /** Names row `n` (1-based) for assistive technology, e.g. "Date 2". */
  rowLabel: (n: number) => string;
  /** The inputs of row `index`, whose path is `${name}.${index}`. */
  renderRow: (index: number) => ReactNode;
}

/**
 * A list of rows in the form (dates, identifiers, references…): add, remove and move up or down
 * by buttons, each row a labelled group of its inputs.
 */
export function RepeatableField<N extends ArrayPath<DepositFormValues>>({
  name,
  legend,
  help,
  addLabel,
  newRow,
  rowLabel,
  renderRow,
}: RepeatableFieldProps<N>) {
  const { control } = useFormContext<DepositFormValues>();
  const { fields, append, remove, move } = useFieldArray({ control, name });
  return (
    <ListFieldset
      name={name}
      legend={legend}
      help={help}
      addLabel={addLabel}
      onAdd={() => append(newRow())}
    >
      {fields.map((field, index) => {
        const label = rowLabel(index + 1);
        return (
          <ListRow
            key={field.id}
            label={label}
            actions={
              <ListRowActions
                index={index}
                count={fields.length}
                rowLabel={label}
                onMove={move}
                onRemove={remove}
              />
            }
          >
            {renderRow(index)}
          </ListRow>
        );
      })}
    </ListFieldset>
  );
}
