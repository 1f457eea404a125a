import { ActionIcon, Anchor, Badge, Box, Button, Group, Text } from '@mantine/core';
import { useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import type { CreatorFormValues, DepositFormValues } from '@cairn/shared';
import { memo, useCallback, useSyncExternalStore } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useRoleLabel } from './api';
import {
  affiliationNames,
  creatorName,
  identifierLinks,
  type IdentifierLink,
} from './creator-display';
import type { CreatorListName, CreatorType } from './creator-rules';

/** Every row has this height, so the virtualiser can place rows without measuring them. */
export const ROW_HEIGHT = 68;

/** What a row shows; compared deeply, so a row re-renders only when this changes. */
interface RowView {
  name: string;
  type: CreatorType;
  role: string;
  affiliations: string;
  identifiers: IdentifierLink[];
}

function toRowView(creator: CreatorFormValues | undefined): RowView {
  return {
    name: creatorName(creator),
    type: creator?.person_or_org?.type === 'organizational' ? 'organizational' : 'personal',
    role: creator?.role ?? '',
    affiliations: affiliationNames(creator).join('; '),
    identifiers: identifierLinks(creator),
  };
}

export interface CreatorRowProps {
  list: CreatorListName;
  /** The row's stable id (React Hook Form's field id), also its drag-and-drop id. */
  id: string;
  /** Its place in the whole list (not in the filtered view). */
  index: number;
  total: number;
  /** Its offset in the scroll box, from the virtualiser. */
  top: number;
  isHighlighted: boolean;
  /** Reordering is off while the list is filtered: neighbours on screen are not neighbours. */
  canReorder: boolean;
  onEdit: (index: number) => void;
  onRemove: (index: number) => void;
  onMove: (index: number, delta: -1 | 1) => void;
}

/**
 * One creator or contributor. It watches its own entry only, through a view compared deeply, so
 * editing, adding or typing elsewhere leaves it alone; the parent passes stable callbacks.
 */
export const CreatorRow = memo(function CreatorRow({
  list,
  id,
  index,
  total,
  top,
  isHighlighted,
  canReorder,
  onEdit,
  onRemove,
  onMove,
}: CreatorRowProps) {
  const { t } = useTranslation();
  const path = `${list}.${index}` as const;
  const view = useWatch<DepositFormValues, typeof path, DepositFormValues, RowView>({
    name: path,
    compute: toRowView,
  });
  const error = useEntryError(path);
  const {
    attributes,
    listeners,
    setNodeRef,
    setActivatorNodeRef,
    transform,
    transition,
    isDragging,
  } = useSortable({ id, disabled: !canReorder });
  const name = view.name || t('creators.list.unnamed');
  const roleLabel = useRoleLabel(list, view.role);

  return (
    <Box
      ref={setNodeRef}
      role="listitem"
      aria-setsize={total}
      aria-posinset={index + 1}
      data-highlighted={isHighlighted || undefined}
      data-dragging={isDragging || undefined}
      className="cairn-creator-row"
      style={{
        position: 'absolute',
        left: 0,
        right: 0,
        top,
        height: ROW_HEIGHT,
        transform: CSS.Translate.toString(transform),
        transition,
        zIndex: isDragging ? 1 : undefined,
        background: isHighlighted || isDragging ? 'var(--mantine-color-yellow-light)' : undefined,
        borderBottom: '1px solid var(--mantine-color-default-border)',
      }}
    >
      <Group gap="xs" wrap="nowrap" h="100%" px="xs">
        {canReorder && (
          <ActionIcon
            ref={setActivatorNodeRef}
            variant="subtle"
            color="gray"
            aria-label={t('creators.list.dragHandle', { name })}
            style={{ cursor: 'grab', touchAction: 'none' }}
            {...attributes}
            {...listeners}
          >
            <span aria-hidden="true">⠿</span>
          </ActionIcon>
        )}
        <Box style={{ flex: 1, minWidth: 0 }}>
          <Group gap={6} wrap="nowrap">
            <Text size="sm" fw={500} truncate="end" title={name}>
              {name}
            </Text>
            <Badge size="xs" variant="outline" color="gray" tt="none" style={{ flexShrink: 0 }}>
              {view.type === 'organizational'
                ? t('creators.fields.organization')
                : t('creators.fields.person')}
            </Badge>
            {roleLabel && (
              <Badge size="xs" variant="light" tt="none" style={{ flexShrink: 0 }}>
                {roleLabel}
              </Badge>
            )}
            {view.identifiers.map((link) => (
              <Anchor
                key={`${link.scheme}:${link.identifier}`}
                href={link.href}
                target="_blank"
                rel="noopener noreferrer"
                size="xs"
                aria-label={t('creators.list.identifierLink', {
                  scheme: SCHEME_LABELS[link.scheme],
                  identifier: link.identifier,
                })}
                title={`${SCHEME_LABELS[link.scheme]} ${link.identifier}`}
                className="cairn-identifier-icon"
                data-scheme={link.scheme}
              >
                {SCHEME_ICONS[link.scheme]}
              </Anchor>
            ))}
          </Group>
          {error ? (
            <Text size="xs" c="red.8" truncate="end" title={error}>
              {error}
            </Text>
          ) : (
            <Text size="xs" c="dimmed" truncate="end" title={view.affiliations}>
              {view.affiliations}
            </Text>
          )}
        </Box>
        <Group gap={4} wrap="nowrap" style={{ flexShrink: 0 }}>
          {canReorder && (
            <>
              <ActionIcon
                variant="subtle"
                color="gray"
                aria-label={t('creators.list.moveUp', { name })}
                disabled={index === 0}
                onClick={() => onMove(index, -1)}
              >
                <span aria-hidden="true">↑</span>
              </ActionIcon>
              <ActionIcon
                variant="subtle"
                color="gray"
                aria-label={t('creators.list.moveDown', { name })}
                disabled={index === total - 1}
                onClick={() => onMove(index, 1)}
              >
                <span aria-hidden="true">↓</span>
              </ActionIcon>
            </>
          )}
          <Button
            size="compact-sm"
            variant="default"
            aria-label={t('creators.list.edit', { name })}
            onClick={() => onEdit(index)}
          >
            {t('creators.list.editShort')}
          </Button>
          <Button
            size="compact-sm"
            variant="subtle"
            color="red"
            aria-label={t('creators.list.remove', { name })}
            onClick={() => onRemove(index)}
          >
            {t('creators.list.removeShort')}
          </Button>
        </Group>
      </Group>
    </Box>
  );
});

// "ORCID iD" is ORCID's own name for it, and holds the icon's text, as a spoken name must (WCAG 2.5.3).
const SCHEME_LABELS: Readonly<Record<IdentifierLink['scheme'], string>> = {
  orcid: 'ORCID iD',
  ror: 'ROR',
  gnd: 'GND',
};

/** Short marks in the schemes' own styles (ORCID's green "iD"); the link's label names them. */
const SCHEME_ICONS: Readonly<Record<IdentifierLink['scheme'], string>> = {
  orcid: 'iD',
  ror: 'ROR',
  gnd: 'GND',
};

/**
 * The first error message of the entry at `path`, re-rendering the row only when it changes.
 * Not `useFormState`: it copies the form's whole state (errors, dirty and touched flags) when a
 * row mounts and again when it unmounts, and rows mount at every scroll and every filter key.
 * Once a list has been imported, the dirty flags hold every imported entry field by field, and
 * that copy took 15-20 ms a render at 5,000 entries.
 */
function useEntryError(path: `${CreatorListName}.${number}`): string | undefined {
  const { subscribe, getFieldState } = useFormContext<DepositFormValues>();
  const onChange = useCallback(
    (notify: () => void) =>
      subscribe({ name: path, formState: { errors: true }, callback: () => notify() }),
    [subscribe, path],
  );
  return useSyncExternalStore(onChange, () => firstMessage(getFieldState(path).error));
}

/** The first message anywhere in a row's errors (the server reports nested paths). */
function firstMessage(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { message } = error as { message?: unknown };
  if (typeof message === 'string' && message !== '') return message;
  for (const [key, value] of Object.entries(error)) {
    if (key === 'ref') continue;
    const nested = firstMessage(value);
    if (nested) return nested;
  }
  return undefined;
}
