/**
 * The creators list as it is shown: the virtualised scroll box of rows, the filter, drag and drop
 * with its announcements, and the dialog. Separate from CreatorsField.tsx, which owns the entries'
 * ids and changes the list (add, remove, move, errors moving along); this component only renders
 * it and asks for those changes, so it re-renders on neither a row's edit nor a keystroke in the
 * dialog.
 */
import {
  DndContext,
  closestCenter,
  type Announcements,
  type DragEndEvent,
  type UniqueIdentifier,
} from '@dnd-kit/core';
import { SortableContext, verticalListSortingStrategy } from '@dnd-kit/sortable';
import {
  Box,
  Button,
  Fieldset,
  Group,
  Input,
  Popover,
  Stack,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import { useVirtualizer } from '@tanstack/react-virtual';
import {
  ADDED_ROW_HIGHLIGHT_MS,
  CREATOR_FILTER_THRESHOLD,
  type CreatorFormValues,
  type DepositFormValues,
} from '@cairn/shared';
import { memo, useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useFormContext, useFormState } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useSortableSensors } from '../useSortableSensors';
import { useRoles } from './api';
import { creatorName, foldForSearch } from './creator-display';
import { matchingPositions, prepareFilterTexts } from './creator-filter';
import { toCreatorEntry, type CreatorEntry } from './creator-entry';
import type { CreatorListName } from './creator-rules';
import { AuthorImportModal, CreatorModal } from '../dialogs';
import type { ImportMode } from './AuthorImportModal';
import type { CreatorMode } from './CreatorModal';
import { CreatorRow, ROW_HEIGHT } from './CreatorRow';
import { FilterBox } from './CreatorFilterBox';
import { observeFixedHeight, SCROLL_BOX_STYLE } from '../../shared/virtual-box';

/** The scroll box's height: about seven rows, the rest scrolls (and is not rendered). */
const LIST_HEIGHT = ROW_HEIGHT * 7;

/** The scroll box's height is fixed below, so it need not be observed. */
const observeListHeight = observeFixedHeight(LIST_HEIGHT);

/** Rows rendered beyond each edge of the scroll box, so fast scrolling shows no gap. */
const OVERSCAN = 4;

/** Where the editor is: closed, adding (`index` null) or editing the entry at `index`. */
type EditorState = { index: number | null } | null;

export interface CreatorsListProps {
  name: CreatorListName;
  creatorMode: CreatorMode;
  /** The entries' stable ids, in order. */
  ids: string[];
  append: (entry: CreatorEntry) => void;
  importEntries: (entries: CreatorEntry[], mode: ImportMode) => void;
  remove: (index: number) => void;
  move: (from: number, to: number) => void;
}

/**
 * Memoised: the field re-renders it only when the ids or callbacks change. A declared function
 * rather than one written inside memo(): in a file of its own, the hooks lint's compiler did not
 * check the latter as a component.
 */
export const CreatorsList = memo(CreatorsListView);

function CreatorsListView({
  name,
  creatorMode,
  ids,
  append,
  importEntries,
  remove,
  move,
}: CreatorsListProps) {
  const { t, i18n } = useTranslation();
  const { control, getValues, setValue } = useFormContext<DepositFormValues>();
  const { errors } = useFormState({ control, name, exact: true });
  const isContributors = name === 'metadata.contributors';
  const [editor, setEditor] = useState<EditorState>(null);
  const [importing, setImporting] = useState(false);
  const [exporting, setExporting] = useState(false);
  const roles = useRoles(name, editor !== null).data;
  // What the list is filtered by; the box keeps what is typed (see FilterBox).
  const [filter, setFilter] = useState('');
  // Bumped to empty the box, which then starts afresh.
  const [filterBoxKey, setFilterBoxKey] = useState(0);
  // Bumped when an entry is edited in place, which does not change `fields`.
  const [revision, setRevision] = useState(0);
  const [highlighted, setHighlighted] = useState<ReadonlySet<string>>(new Set());
  const [announcement, setAnnouncement] = useState('');
  const scrollRef = useRef<HTMLDivElement>(null);
  const addButtonRef = useRef<HTMLButtonElement>(null);
  // Set when entries are appended, so the effect below can highlight them once they have ids.
  const appendedFrom = useRef<number | null>(null);
  const labelId = useId();
  const errorId = useId();
  const helpId = useId();

  const total = ids.length;
  const showFilter = total > CREATOR_FILTER_THRESHOLD;
  const activeFilter = showFilter ? filter.trim() : '';
  // Stands for the entries' content: `ids` changes on adding, removing and moving, `revision`
  // on an edit in place. The values themselves are read from the form.
  const listVersion = useMemo(() => ({ ids, revision }), [ids, revision]);
  const matches = useMemo(() => {
    if (activeFilter === '') return null;
    return matchingPositions(getValues(name), foldForSearch(activeFilter), listVersion);
  }, [activeFilter, listVersion, getValues, name]);
  // The filter's texts are folded while the page is idle, before anyone types.
  useEffect(
    () => (showFilter ? prepareFilterTexts(getValues(name)) : undefined),
    [showFilter, listVersion, getValues, name],
  );
  const shownCount = matches?.length ?? total;
  const canReorder = matches === null;

  // The rows are memoised by hand (memo, stable callbacks); the compiler need not do it.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: shownCount,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    // Rows are keyed by position, not by entry: every row has the same height, and a key
    // function that changes with the order would make the virtualiser recompute the place of
    // all 10,000 rows on every move (React keys the rows by entry id below).
    overscan: OVERSCAN,
    // The box's height is fixed below, so it need not be observed (nor measured in tests).
    observeElementRect: observeListHeight,
  });

  const nameAt = useCallback(
    (index: number) => creatorName(getValues(`${name}.${index}`)) || t('creators.list.unnamed'),
    [getValues, name, t],
  );

  const handleEdit = useCallback((index: number) => setEditor({ index }), []);

  const handleRemove = useCallback(
    (index: number) => {
      const removed = nameAt(index);
      remove(index);
      setAnnouncement(t('creators.list.removed', { name: removed }));
      addButtonRef.current?.focus();
    },
    [nameAt, remove, t],
  );

  const moveTo = useCallback(
    (from: number, to: number) => {
      const moved = nameAt(from);
      move(from, to);
      setAnnouncement(
        t('creators.list.moved', { name: moved, position: to + 1, total: getValues(name).length }),
      );
    },
    [getValues, move, name, nameAt, t],
  );

  const handleMove = useCallback(
    (index: number, delta: -1 | 1) => {
      const to = index + delta;
      if (to < 0 || to >= getValues(name).length) return;
      moveTo(index, to);
      // The row keeps its DOM node (keyed by id), so focus stays on the button that was pressed.
      virtualizer.scrollToIndex(to);
    },
    [getValues, moveTo, name, virtualizer],
  );

  useEffect(() => {
    const from = appendedFrom.current;
    if (from === null || ids.length <= from) return undefined;
    appendedFrom.current = null;
    setHighlighted(new Set(ids.slice(from)));
    virtualizer.scrollToIndex(ids.length - 1, { align: 'end' });
    const timer = setTimeout(() => setHighlighted(new Set()), ADDED_ROW_HIGHLIGHT_MS);
    return () => clearTimeout(timer);
  }, [ids, virtualizer]);

  function handleAdd(creator: CreatorFormValues) {
    appendedFrom.current ??= getValues(name).length;
    // Adding clears the filter so the new entry is seen where it lands: at the end.
    setFilter('');
    setFilterBoxKey((key) => key + 1);
    append(toCreatorEntry(creator));
    setAnnouncement(t('creators.list.added', { name: creatorName(creator) }));
  }

  function handleImport(creators: CreatorFormValues[], mode: ImportMode) {
    appendedFrom.current = mode === 'replace' ? 0 : getValues(name).length;
    setFilter('');
    setFilterBoxKey((key) => key + 1);
    importEntries(creators.map(toCreatorEntry), mode);
    setAnnouncement(
      t(mode === 'replace' ? 'creators.transfer.replaced' : 'creators.transfer.imported', {
        count: creators.length,
      }),
    );
    setImporting(false);
    addButtonRef.current?.focus();
  }

  async function handleExport(format: ExportFormat) {
    // The writers load with the first export: the form does not need them to be shown.
    const { writeJson, writeTable } = await import('./author-table');
    const list = getValues(name);
    const language = i18n.language.startsWith('de') ? 'de' : 'en';
    const text = format === 'json' ? writeJson(list) : writeTable(list, format, language);
    const type = EXPORT_TYPES[format];
    const base = isContributors ? 'contributors' : 'creators';
    // A byte-order mark before CSV and TSV: without it, Excel reads UTF-8 as its legacy encoding.
    download(format === 'json' ? text : `\uFEFF${text}`, `${base}.${format}`, type);
    setAnnouncement(
      t('creators.transfer.exportDone', { count: list.length, format: format.toUpperCase() }),
    );
  }

  function handleSave(creator: CreatorFormValues) {
    if (editor?.index === null || editor === null) {
      handleAdd(creator);
    } else {
      setValue(`${name}.${editor.index}`, toCreatorEntry(creator), { shouldDirty: true });
      setRevision((value) => value + 1);
      setAnnouncement(t('creators.list.updated', { name: creatorName(creator) }));
    }
    setEditor(null);
  }

  function handleDragEnd({ active, over }: DragEndEvent) {
    if (!over || active.id === over.id) return;
    const from = ids.indexOf(String(active.id));
    const to = ids.indexOf(String(over.id));
    if (from >= 0 && to >= 0) moveTo(from, to);
  }

  const sensors = useSortableSensors();
  // Positions are announced as they were when the drag began: the drop reorders `ids`
  // before dnd-kit asks for the last announcement.
  const dragOrder = useRef<readonly string[]>([]);
  const dragName = useRef('');
  const positionOf = (id: UniqueIdentifier) => dragOrder.current.indexOf(String(id));
  const announcements: Announcements = {
    onDragStart: ({ active }) =>
      t('creators.dnd.pickedUp', {
        name: nameAt(ids.indexOf(String(active.id))),
        position: ids.indexOf(String(active.id)) + 1,
        total,
      }),
    onDragOver: ({ over }) =>
      over
        ? t('creators.dnd.over', {
            name: dragName.current,
            position: positionOf(over.id) + 1,
            total,
          })
        : undefined,
    onDragEnd: ({ active, over }) =>
      t('creators.dnd.dropped', {
        name: dragName.current,
        position: positionOf((over ?? active).id) + 1,
        total,
      }),
    onDragCancel: ({ active }) =>
      t('creators.dnd.cancelled', {
        name: dragName.current,
        position: positionOf(active.id) + 1,
      }),
  };

  const listError = errors.metadata?.[isContributors ? 'contributors' : 'creators'];
  const listErrorMessage = listError?.message ?? listError?.root?.message;
  const label = isContributors ? t('creators.field.contributors') : t('creators.field.creators');
  const editing = editor?.index ?? null;
  const exportLabel = isContributors
    ? t('creators.transfer.exportContributors')
    : t('creators.transfer.exportCreators');

  return (
    <Fieldset
      variant="unstyled"
      id={isContributors ? 'contributors' : 'creators'}
      legend={
        <Text component="span" size="sm" fw={500} id={labelId}>
          {label}
          {!isContributors && (
            <Text component="span" c="red" aria-hidden="true">
              {' *'}
            </Text>
          )}
        </Text>
      }
      aria-describedby={[listErrorMessage ? errorId : '', helpId].filter(Boolean).join(' ')}
    >
      <Stack gap="xs">
        {listErrorMessage && <Input.Error id={errorId}>{listErrorMessage}</Input.Error>}
        {showFilter && (
          <Group align="flex-end" gap="sm">
            <FilterBox
              key={filterBoxKey}
              label={
                isContributors ? t('creators.filter.contributors') : t('creators.filter.creators')
              }
              placeholder={
                isContributors
                  ? t('creators.filter.contributorsPlaceholder')
                  : t('creators.filter.creatorsPlaceholder')
              }
              onFilterChange={setFilter}
            />
            <Text size="sm" c="dimmed" aria-live="polite" pb={6}>
              {t('creators.filter.count', { shown: shownCount, total })}
            </Text>
          </Group>
        )}
        {total > 0 && (
          <DndContext
            sensors={sensors}
            collisionDetection={closestCenter}
            onDragStart={({ active }) => {
              dragOrder.current = ids;
              dragName.current = nameAt(ids.indexOf(String(active.id)));
            }}
            onDragEnd={handleDragEnd}
            accessibility={{
              announcements,
              screenReaderInstructions: { draggable: t('creators.dnd.instructions') },
            }}
          >
            <SortableContext items={ids} strategy={verticalListSortingStrategy}>
              <Box
                ref={scrollRef}
                role="region"
                aria-labelledby={labelId}
                tabIndex={0}
                style={{
                  // While a filter narrows the list, the box keeps the whole list's height: the
                  // sections below stay where they are as a person types, and none of them comes
                  // on screen to be drawn for the first time (FormSection) at each key.
                  height: Math.min((activeFilter ? total : shownCount) * ROW_HEIGHT, LIST_HEIGHT),
                  ...SCROLL_BOX_STYLE,
                }}
              >
                <Box
                  role="list"
                  aria-labelledby={labelId}
                  style={{ position: 'relative', height: virtualizer.getTotalSize() }}
                >
                  {virtualizer.getVirtualItems().map((item) => {
                    const index = matches ? (matches[item.index] ?? 0) : item.index;
                    const id = ids[index] ?? String(index);
                    return (
                      <CreatorRow
                        key={id}
                        list={name}
                        id={id}
                        index={index}
                        total={total}
                        top={item.start}
                        isHighlighted={highlighted.has(id)}
                        canReorder={canReorder}
                        onEdit={handleEdit}
                        onRemove={handleRemove}
                        onMove={handleMove}
                      />
                    );
                  })}
                </Box>
              </Box>
            </SortableContext>
          </DndContext>
        )}
        {matches !== null && matches.length === 0 && (
          <Text size="sm" c="dimmed">
            {t('creators.filter.none')}
          </Text>
        )}
        <Group>
          <Button ref={addButtonRef} variant="default" onClick={() => setEditor({ index: null })}>
            {isContributors ? t('creators.list.addContributor') : t('creators.list.addCreator')}
          </Button>
          <Button variant="default" onClick={() => setImporting(true)}>
            {isContributors
              ? t('creators.transfer.importContributors')
              : t('creators.transfer.importCreators')}
          </Button>
          {total > 0 && (
            <Popover
              opened={exporting}
              onChange={setExporting}
              position="bottom-start"
              trapFocus
              returnFocus
              shadow="md"
            >
              <Popover.Target>
                <Button
                  variant="subtle"
                  aria-label={exportLabel}
                  onClick={() => setExporting((open) => !open)}
                >
                  {t('creators.transfer.export')}
                </Button>
              </Popover.Target>
              <Popover.Dropdown aria-label={exportLabel}>
                <Stack gap={4}>
                  {EXPORT_FORMATS.map((format) => (
                    <Button
                      key={format}
                      variant="subtle"
                      justify="flex-start"
                      onClick={() => {
                        setExporting(false);
                        void handleExport(format);
                      }}
                    >
                      {t('creators.transfer.exportAs', { format: format.toUpperCase() })}
                    </Button>
                  ))}
                </Stack>
              </Popover.Dropdown>
            </Popover>
          )}
        </Group>
        <Text size="xs" c="dimmed" id={helpId}>
          {isContributors ? t('creators.field.contributorsHelp') : t('creators.field.creatorsHelp')}
        </Text>
        {/* A live region without the status role: the page's own status banner keeps that. */}
        <VisuallyHidden aria-live="polite" aria-atomic="true">
          {announcement}
        </VisuallyHidden>
      </Stack>
      <CreatorModal
        list={name}
        opened={editor !== null}
        creator={editing === null ? undefined : getValues(`${name}.${editing}`)}
        creatorMode={creatorMode}
        roles={roles ?? []}
        onSave={handleSave}
        onSaveAndAddAnother={handleAdd}
        onClose={() => setEditor(null)}
      />
      <AuthorImportModal
        list={name}
        opened={importing}
        currentCount={total}
        onImport={handleImport}
        onClose={() => setImporting(false)}
      />
    </Fieldset>
  );
}

const EXPORT_FORMATS = ['csv', 'tsv', 'json'] as const;
type ExportFormat = (typeof EXPORT_FORMATS)[number];
const EXPORT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv;charset=utf-8',
  tsv: 'text/tab-separated-values;charset=utf-8',
  json: 'application/json',
};

/** Hands `text` to the browser as a file download named `fileName`. */
function download(text: string, fileName: string, type: string) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  // After the click has been handled: revoking at once can cancel the download in some browsers.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
