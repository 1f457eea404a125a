import { Group, Paper } from '@mantine/core';
import type { ReactNode } from 'react';

export interface ListRowProps {
  /** Names the row's group for assistive technology, e.g. "Date 2". */
  label: string;
  actions: ReactNode;
  children: ReactNode;
}

/** One row of a repeatable field: its inputs side by side, its actions at the end. */
export function ListRow({ label, actions, children }: ListRowProps) {
  return (
    <Paper role="group" aria-label={label} withBorder p="sm" radius="sm">
      <Group align="flex-start" wrap="nowrap" gap="sm">
        <Group grow align="flex-start" style={{ flex: 1 }}>
          {children}
        </Group>
        <Group pt={24}>{actions}</Group>
      </Group>
    </Paper>
  );
}
