import {
  DndContext,
  closestCenter,
  type Announcements,
  type DragEndEvent,
  type UniqueIdentifier,
} from '@dnd-kit/core';
import { SortableContext, arrayMove, verticalListSortingStrategy } from '@dnd-kit/sortable';
import {
  Box,
  Button,
  Fieldset,
  Group,
  Input,
  Stack,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { useVirtualizer, type Virtualizer } from '@tanstack/react-virtual';
import {
  ADDED_ROW_HIGHLIGHT_MS,
  CREATOR_FILTER_THRESHOLD,
  type CreatorFormValues,
  type DepositFormValues,
} from '@cairn/shared';
import {
  memo,
  useCallback,
  startTransition,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useFormContext, useFormState, useWatch, type FieldPath } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { afterNextPaint } from '../../../lib/idle';
import { useSortableSensors } from '../useSortableSensors';
import { useRoles } from './api';
import { creatorName, foldForSearch } from './creator-display';
import { matchingPositions, prepareFilterTexts } from './creator-filter';
import { toCreatorEntry, type CreatorEntry } from './creator-entry';
import type { CreatorListName } from './creator-rules';
import { CreatorModal } from '../dialogs';
import type { CreatorMode } from './CreatorModal';
import { CreatorRow, ROW_HEIGHT } from './CreatorRow';

/** The scroll box's height: about seven rows, the rest scrolls (and is not rendered). */
const LIST_HEIGHT = ROW_HEIGHT * 7;

/** Rows rendered beyond each edge of the scroll box, so fast scrolling shows no gap. */
const OVERSCAN = 4;

export interface CreatorsFieldProps {
  /** Which list: the citation's creators or the other contributors. */
  name: CreatorListName;
  /** How the dialog finds people and organisations (config `creatorMode`); `search` by default. */
  creatorMode?: CreatorMode;
}

/** Where the editor is: closed, adding (`index` null) or editing the entry at `index`. */
type EditorState = { index: number | null } | null;

/**
 * The creators (or contributors) of the record: a list of rows, each edited in a dialog, that stays
 * fluid at 10,000 entries, as a large consortium's author list has. Only the rows in view are
 * rendered (a virtualised scroll box); each row watches its own entry, so nothing else re-renders
 * when one changes, and the parent never watches the array. Long lists get a filter; rows are
 * reordered by dragging, by the keyboard (dnd-kit's keyboard sensor) or by move-up/move-down
 * buttons, with every move announced.
 *
 * Needs: a React Hook Form `FormProvider` of `DepositFormValues` around it, and the API's
 * `GET /api/vocabularies/{creatorsroles|contributorsroles}`, `/api/names` and `/api/affiliations`.
 */
export function CreatorsField({ name, creatorMode = 'search' }: CreatorsFieldProps) {
  const { control, getValues, setValue, getFieldState, clearErrors, setError } =
    useFormContext<DepositFormValues>();
  // Not useFieldArray: it maps the whole list to fresh random ids on every render of its host,
  // 30 ms a move at 10,000 entries. The list's length is all this component watches.
  const length = useWatch({ control, name, compute: (list: unknown) => lengthOf(list) });
  const [ids, setIds] = useState(() => Array.from({ length }, nextRowId));
  // The list may be replaced from outside (a reset after loading, a restored journal): the keys
  // follow its length; rows read their values by position anyway.
  if (ids.length !== length) setIds(resizeIds(ids, length));

  /** Moves the entries' server errors along with them (`order[newIndex] = oldIndex`). */
  const remapErrors = useCallback(
    (order: readonly number[]) => {
      const listError: unknown = getFieldState(name).error;
      if (!Array.isArray(listError)) return;
      const leaves: Array<[number, string, string]> = [];
      listError.forEach((entryError: unknown, oldIndex) => {
        for (const [path, message] of leafErrors(entryError, '')) {
          leaves.push([oldIndex, path, message]);
        }
      });
      if (leaves.length === 0) return;
      clearErrors(leaves.map(([index, path]) => errorPath(name, index, path)));
      const newIndexOf = new Map(order.map((oldIndex, newIndex) => [oldIndex, newIndex]));
      for (const [oldIndex, path, message] of leaves) {
        const newIndex = newIndexOf.get(oldIndex);
        if (newIndex !== undefined) {
          setError(errorPath(name, newIndex, path), { type: 'server', message });
        }
      }
    },
    [clearErrors, getFieldState, name, setError],
  );

  const append = useCallback(
    (entry: CreatorEntry) => {
      setIds((current) => [...current, nextRowId()]);
      setValue(name, [...getValues(name), entry]);
    },
    [getValues, name, setValue],
  );
  const remove = useCallback(
    (index: number) => {
      const list = getValues(name);
      setIds((current) => current.filter((_, i) => i !== index));
      setValue(
        name,
        list.filter((_, i) => i !== index),
      );
      remapErrors(list.map((_, i) => i).filter((i) => i !== index));
    },
    [getValues, name, remapErrors, setValue],
  );
  const move = useCallback(
    (from: number, to: number) => {
      const list = getValues(name);
      setIds((current) => arrayMove(current, from, to));
      setValue(name, arrayMove(list, from, to));
      remapErrors(
        arrayMove(
          list.map((_, i) => i),
          from,
          to,
        ),
      );
    },
    [getValues, name, remapErrors, setValue],
  );

  return (
    <CreatorsList
      name={name}
      creatorMode={creatorMode}
      ids={ids}
      append={append}
      remove={remove}
      move={move}
    />
  );
}

let rowIdSequence = 0;

/** A row's key and drag-and-drop id: unique in the page, never reused. */
function nextRowId(): string {
  rowIdSequence += 1;
  return `creator-${rowIdSequence}`;
}

function resizeIds(ids: readonly string[], length: number): string[] {
  return length <= ids.length
    ? ids.slice(0, length)
    : [...ids, ...Array.from({ length: length - ids.length }, nextRowId)];
}

function lengthOf(list: unknown): number {
  return Array.isArray(list) ? list.length : 0;
}

function errorPath(name: CreatorListName, index: number, path: string) {
  return `${name}.${index}${path}` as FieldPath<DepositFormValues>;
}

/** Every message in an entry's nested errors, with its path below the entry (`.role`). */
function leafErrors(error: unknown, path: string): Array<[string, string]> {
  if (typeof error !== 'object' || error === null) return [];
  const { message } = error as { message?: unknown };
  if (typeof message === 'string') return [[path, message]];
  return Object.entries(error).flatMap(([key, value]) =>
    key === 'ref' ? [] : leafErrors(value, `${path}.${key}`),
  );
}

interface CreatorsListProps extends Required<CreatorsFieldProps> {
  /** The entries' stable ids, in order. */
  ids: string[];
  append: (entry: CreatorEntry) => void;
  remove: (index: number) => void;
  move: (from: number, to: number) => void;
}

const CreatorsList = memo(function CreatorsList({
  name,
  creatorMode,
  ids,
  append,
  remove,
  move,
}: CreatorsListProps) {
  const { t } = useTranslation();
  const { control, getValues, setValue } = useFormContext<DepositFormValues>();
  const { errors } = useFormState({ control, name, exact: true });
  const isContributors = name === 'metadata.contributors';
  const [editor, setEditor] = useState<EditorState>(null);
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
    observeElementRect: observeFixedHeight,
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
                  height: Math.min(shownCount * ROW_HEIGHT, LIST_HEIGHT),
                  overflowY: 'auto',
                  border: '1px solid var(--mantine-color-default-border)',
                  borderRadius: 'var(--mantine-radius-sm)',
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
    </Fieldset>
  );
});

/**
 * The filter's text box. It owns what is typed, so a keystroke repaints the box alone. The list
 * is filtered once that keystroke is on screen (a frame that also had to wait for the filtering
 * of 10,000 names would come late), in a transition React may interrupt for the next keystroke;
 * keystrokes that come before it starts are filtered for together.
 */
function FilterBox({
  label,
  placeholder,
  onFilterChange,
}: {
  label: string;
  placeholder: string;
  onFilterChange: (filter: string) => void;
}) {
  const [text, setText] = useState('');
  const pending = useRef<(() => void) | null>(null);
  useEffect(() => () => pending.current?.(), []);
  return (
    <TextInput
      style={{ flex: 1 }}
      type="search"
      label={label}
      placeholder={placeholder}
      value={text}
      onChange={(event) => {
        const value = event.currentTarget.value;
        setText(value);
        pending.current?.();
        pending.current = afterNextPaint(() => {
          pending.current = null;
          startTransition(() => onFilterChange(value));
        });
      }}
      autoComplete="off"
    />
  );
}

/** The scroll box has a fixed CSS height; reporting it spares a ResizeObserver per list. */
function observeFixedHeight(
  _instance: Virtualizer<HTMLDivElement, Element>,
  onChange: (rect: { width: number; height: number }) => void,
): undefined {
  onChange({ width: 0, height: LIST_HEIGHT });
  return undefined;
}
