import { ActionIcon, Group, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export interface ListRowActionsProps {
  index: number;
  count: number;
  /** Names the row for assistive technology, e.g. "Additional title 2". */
  rowLabel: string;
  onMove: (from: number, to: number) => void;
  onRemove: (index: number) => void;
}

/**
 * Move up, move down and remove for one row of a repeatable field: buttons rather than drag only,
 * so the order can be changed from the keyboard (InvenioRDM's is drag only).
 */
export function ListRowActions({ index, count, rowLabel, onMove, onRemove }: ListRowActionsProps) {
  const { t } = useTranslation();
  const up = t('metadata.list.moveUp', { row: rowLabel });
  const down = t('metadata.list.moveDown', { row: rowLabel });
  const remove = t('metadata.list.remove', { row: rowLabel });
  return (
    <Group gap={4} wrap="nowrap">
      {count > 1 && (
        <>
          <Tooltip label={up}>
            <ActionIcon
              variant="subtle"
              aria-label={up}
              disabled={index === 0}
              onClick={() => onMove(index, index - 1)}
            >
              <span aria-hidden="true">↑</span>
            </ActionIcon>
          </Tooltip>
          <Tooltip label={down}>
            <ActionIcon
              variant="subtle"
              aria-label={down}
              disabled={index === count - 1}
              onClick={() => onMove(index, index + 1)}
            >
              <span aria-hidden="true">↓</span>
            </ActionIcon>
          </Tooltip>
        </>
      )}
      <Tooltip label={remove}>
        <ActionIcon
          variant="subtle"
          color="red"
          aria-label={remove}
          onClick={() => onRemove(index)}
        >
          <span aria-hidden="true">×</span>
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}
