import { Button, Fieldset, Input, Stack, Text } from '@mantine/core';
import type { DepositFormValues } from '@cairn/shared';
import { useId, type ReactNode } from 'react';
import { useFormContext, useFormState, type FieldPath } from 'react-hook-form';

export interface ListFieldsetProps {
  /** The list's path, e.g. `metadata.dates`: an error on the list itself is shown here. */
  name: FieldPath<DepositFormValues>;
  legend: string;
  help?: ReactNode;
  addLabel: string;
  onAdd: () => void;
  children: ReactNode;
}

/**
 * A repeatable field: a labelled group of rows, the list's own error (e.g. "Not a valid list.")
 * and an add button. Rows bring their inputs and {@link ListRowActions}.
 */
export function ListFieldset({ name, legend, help, addLabel, onAdd, children }: ListFieldsetProps) {
  const { getFieldState } = useFormContext<DepositFormValues>();
  const formState = useFormState<DepositFormValues>({ name });
  const message = getFieldState(name, formState).error?.message;
  const error = typeof message === 'string' ? { message } : undefined;
  const errorId = useId();
  const helpId = useId();
  const describedBy = [error?.message ? errorId : '', help ? helpId : ''].join(' ').trim();
  return (
    <Fieldset
      legend={
        <Text component="span" size="sm" fw={500}>
          {legend}
        </Text>
      }
      variant="unstyled"
      aria-describedby={describedBy || undefined}
    >
      <Stack gap="sm">
        {help && (
          <Input.Description id={helpId} mt={-4}>
            {help}
          </Input.Description>
        )}
        {error?.message && <Input.Error id={errorId}>{error.message}</Input.Error>}
        {children}
        <div>
          <Button variant="light" size="xs" onClick={onAdd}>
            {addLabel}
          </Button>
        </div>
      </Stack>
    </Fieldset>
  );
}
