import type { CreatorFormValues } from '@cairn/shared';
import { filterText } from './creator-display';

/*
 * The creators filter over lists of 10,000 entries: each entry's folded text is computed once
 * (entries are replaced, never changed in place), ahead of time while the browser is idle, and a
 * filter that grew by a letter searches the previous matches only.
 */

const filterTexts = new WeakMap<object, string>();

/** The entry's filter text, computed on its first use only. */
export function cachedFilterText(creator: CreatorFormValues): string {
  let text = filterTexts.get(creator);
  if (text === undefined) {
    text = filterText(creator);
    filterTexts.set(creator, text);
  }
  return text;
}

interface FilterResult {
  needle: string;
  positions: number[];
}

/** The last result per version of a list (see `matchingPositions`). */
const lastResults = new WeakMap<object, FilterResult>();

/**
 * The positions in `list` whose filter text contains `needle` (folded, see `foldForSearch`).
 * `version` stands for the list's content: a new object whenever an entry is added, removed,
 * moved or edited. For the same version, a needle that contains the previous one (the person
 * typed on) can only match among the previous matches, so only those are tested.
 */
export function matchingPositions(
  list: readonly CreatorFormValues[],
  needle: string,
  version: object,
): number[] {
  const last = lastResults.get(version);
  const positions: number[] = [];
  if (last && needle.includes(last.needle)) {
    for (const position of last.positions) {
      const creator = list[position];
      if (creator && cachedFilterText(creator).includes(needle)) positions.push(position);
    }
  } else {
    list.forEach((creator, position) => {
      if (cachedFilterText(creator).includes(needle)) positions.push(position);
    });
  }
  lastResults.set(version, { needle, positions });
  return positions;
}

/** What one idle slice may take before handing back to the browser. */
const SLICE_MS = 4;

/**
 * Computes the filter texts of `list` while the browser is idle, a few milliseconds at a time,
 * so that the first letter typed into the filter does not fold 10,000 names at once. Returns a
 * function that stops it.
 */
export function prepareFilterTexts(list: readonly CreatorFormValues[]): () => void {
  let next = 0;
  let handle: number | undefined;
  const step = (deadline?: IdleDeadline) => {
    const started = performance.now();
    const hasTime = () =>
      deadline ? deadline.timeRemaining() > 1 : performance.now() - started < SLICE_MS;
    while (next < list.length && hasTime()) {
      const creator = list[next];
      if (creator) cachedFilterText(creator);
      next += 1;
    }
    if (next < list.length) handle = schedule(step);
  };
  handle = schedule(step);
  return () => {
    if (handle !== undefined) cancel(handle);
  };
}

function schedule(step: (deadline?: IdleDeadline) => void): number {
  if (typeof requestIdleCallback === 'function') return requestIdleCallback(step);
  return window.setTimeout(step, 0);
}

function cancel(handle: number): void {
  if (typeof cancelIdleCallback === 'function') cancelIdleCallback(handle);
  else window.clearTimeout(handle);
}
