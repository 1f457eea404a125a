import { closestCenter, DndContext, type DragEndEvent } from '@dnd-kit/core';
import { SortableContext, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { ActionIcon, Anchor, Button, Fieldset, Group, Paper, Stack, Text } from '@mantine/core';
import type { DepositFormValues, RightsFormValues } from '@cairn/shared';
import { useState, type ReactNode } from 'react';
import { useFieldArray, useFormContext, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useSortableSensors } from '../useSortableSensors';
import { useVocabularyEntries } from './api';
import { CustomLicenseModal, LicenseSearchModal } from '../dialogs';
import { ListRowActions } from './ListRowActions';
import { truncateDescription } from './truncate';

const EMPTY: RightsFormValues[] = [];

type Dialog = { kind: 'none' } | { kind: 'standard' } | { kind: 'custom'; index?: number };

/**
 * `metadata.rights`: the chosen licences in order. Standard ones are picked in a search dialog,
 * custom ones described in another; the order changes by dragging, by the keyboard (dnd-kit's
 * keyboard sensor: Space, arrows, Space) or with the move buttons.
 */
export function LicensesField() {
  const { t } = useTranslation();
  const { control } = useFormContext<DepositFormValues>();
  const { fields, append, remove, move, update } = useFieldArray({
    control,
    name: 'metadata.rights',
    keyName: 'key',
  });
  const rights = useWatch({ control, name: 'metadata.rights' }) ?? EMPTY;
  const ids = rights.flatMap((entry) => (entry.id ? [entry.id] : []));
  // Licences loaded with their id alone are described by the vocabulary.
  const known = useVocabularyEntries(
    'licenses',
    rights.flatMap((entry) => (entry.id && !entry.title ? [entry.id] : [])),
  );
  const [dialog, setDialog] = useState<Dialog>({ kind: 'none' });
  const sensors = useSortableSensors();

  function titleOf(index: number): string {
    const entry = rights[index];
    if (!entry) return '';
    return entry.title ?? (entry.id ? (known.get(entry.id)?.title_l10n ?? entry.id) : '');
  }

  function handleDragEnd(event: DragEndEvent) {
    const { active, over } = event;
    if (!over || active.id === over.id) return;
    const from = fields.findIndex((field) => field.key === active.id);
    const to = fields.findIndex((field) => field.key === over.id);
    if (from >= 0 && to >= 0) move(from, to);
  }

  const editing = dialog.kind === 'custom' && dialog.index !== undefined ? dialog.index : undefined;
  const positionOf = (id: string | number) =>
    fields.findIndex((field) => field.key === String(id)) + 1;

  const list = (
    <Stack component="ol" gap="xs" p={0} m={0} style={{ listStyle: 'none' }}>
      {fields.map((field, index) => {
        const entry = rights[index];
        if (!entry) return null;
        const vocabulary = entry.id ? known.get(entry.id) : undefined;
        const title = titleOf(index);
        const description = entry.description ?? vocabulary?.description_l10n;
        const url = entry.link ?? vocabulary?.props?.url;
        return (
          <SortableLicense key={field.key} id={field.key} title={title} canDrag={fields.length > 1}>
            <div style={{ flex: 1 }}>
              <Text fw={500}>{title}</Text>
              {description && <Text size="sm">{truncateDescription(description)}</Text>}
              {typeof url === 'string' && (
                <Anchor href={url} target="_blank" rel="noopener noreferrer" size="sm">
                  {t('metadata.licenses.readMore', { title })}
                </Anchor>
              )}
            </div>
            {!entry.id && (
              <Button
                size="xs"
                variant="subtle"
                aria-label={t('metadata.licenses.edit', { title })}
                onClick={() => setDialog({ kind: 'custom', index })}
              >
                {t('metadata.licenses.editShort')}
              </Button>
            )}
            <ListRowActions
              index={index}
              count={fields.length}
              rowLabel={title}
              onMove={move}
              onRemove={remove}
            />
          </SortableLicense>
        );
      })}
    </Stack>
  );

  return (
    <Fieldset
      legend={
        <Text component="span" size="sm" fw={500}>
          {t('metadata.licenses.legend')}
        </Text>
      }
      variant="unstyled"
    >
      <Stack gap="sm">
        {fields.length > 1 ? (
          <DndContext
            sensors={sensors}
            collisionDetection={closestCenter}
            onDragEnd={handleDragEnd}
            accessibility={{
              screenReaderInstructions: { draggable: t('metadata.dnd.instructions') },
              announcements: {
                onDragStart: ({ active }) =>
                  t('metadata.dnd.picked', { position: positionOf(active.id) }),
                onDragOver: ({ over }) =>
                  over ? t('metadata.dnd.over', { position: positionOf(over.id) }) : '',
                onDragEnd: ({ over }) =>
                  over ? t('metadata.dnd.dropped', { position: positionOf(over.id) }) : '',
                onDragCancel: () => t('metadata.dnd.cancelled'),
              },
            }}
          >
            <SortableContext
              items={fields.map((field) => field.key)}
              strategy={verticalListSortingStrategy}
            >
              {list}
            </SortableContext>
          </DndContext>
        ) : (
          list
        )}
        <Group gap="xs">
          <Button variant="light" size="xs" onClick={() => setDialog({ kind: 'standard' })}>
            {t('metadata.licenses.addStandard')}
          </Button>
          <Button variant="light" size="xs" onClick={() => setDialog({ kind: 'custom' })}>
            {t('metadata.licenses.addCustom')}
          </Button>
        </Group>
      </Stack>
      <LicenseSearchModal
        opened={dialog.kind === 'standard'}
        chosen={ids}
        onClose={() => setDialog({ kind: 'none' })}
        onSubmit={append}
        onCustom={() => setDialog({ kind: 'custom' })}
      />
      <CustomLicenseModal
        opened={dialog.kind === 'custom'}
        initial={editing !== undefined ? rights[editing] : undefined}
        onClose={() => setDialog({ kind: 'none' })}
        onSubmit={(license) => (editing !== undefined ? update(editing, license) : append(license))}
      />
    </Fieldset>
  );
}

function SortableLicense({
  id,
  title,
  canDrag,
  children,
}: {
  id: string;
  title: string;
  /** A lone licence has nothing to be reordered with (and no DndContext around it). */
  canDrag: boolean;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const {
    attributes,
    listeners,
    setNodeRef,
    setActivatorNodeRef,
    transform,
    transition,
    isDragging,
  } = useSortable({ id });
  return (
    <li
      ref={setNodeRef}
      style={{
        transform: CSS.Transform.toString(transform),
        transition,
        zIndex: isDragging ? 1 : 0,
      }}
    >
      <Paper withBorder p="sm" radius="sm" shadow={isDragging ? 'md' : undefined}>
        <Group wrap="nowrap" align="flex-start">
          {canDrag && (
            <ActionIcon
              ref={setActivatorNodeRef}
              variant="subtle"
              style={{ cursor: 'grab', touchAction: 'none' }}
              {...attributes}
              {...listeners}
              aria-label={t('metadata.licenses.drag', { title })}
            >
              <span aria-hidden="true">⠿</span>
            </ActionIcon>
          )}
          {children}
        </Group>
      </Paper>
    </li>
  );
}
