import { arrayMove } from '@dnd-kit/sortable';
import type { DepositFormValues } from '@cairn/shared';
import { useCallback, useState } from 'react';
import { useFormContext, useWatch, type FieldPath } from 'react-hook-form';
import type { ImportMode } from './AuthorImportModal';
import type { CreatorEntry } from './creator-entry';
import type { CreatorListName } from './creator-rules';
import type { CreatorMode } from './CreatorModal';
import { CreatorsList } from './CreatorsList';

export interface CreatorsFieldProps {
  /** Which list: the citation's creators or the other contributors. */
  name: CreatorListName;
  /** How the dialog finds people and organisations (config `creatorMode`); `search` by default. */
  creatorMode?: CreatorMode;
}

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
  /** Imported entries: after the list's (`append`) or instead of it (`replace`). */
  const importEntries = useCallback(
    (entries: CreatorEntry[], mode: ImportMode) => {
      const fresh = Array.from({ length: entries.length }, nextRowId);
      if (mode === 'replace') {
        // The old entries' errors go with them.
        clearErrors(name);
        setIds(fresh);
        setValue(name, entries);
      } else {
        setIds((current) => [...current, ...fresh]);
        setValue(name, [...getValues(name), ...entries]);
      }
    },
    [clearErrors, getValues, name, setValue],
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
      importEntries={importEntries}
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
