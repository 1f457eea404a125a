import type { Virtualizer } from '@tanstack/react-virtual';

/**
 * What the virtualised lists (creators, their import preview, the file trees) share: a
 * scroll box of fixed height with a border, whose height is reported to the virtualiser rather
 * than observed (a ResizeObserver per list, and nothing to measure in tests).
 */
export const SCROLL_BOX_STYLE = {
  overflowY: 'auto',
  border: '1px solid var(--mantine-color-default-border)',
  borderRadius: 'var(--mantine-radius-sm)',
} as const;

/** The virtualiser's `observeElementRect` for a scroll box `height` pixels high. */
export function observeFixedHeight(height: number) {
  return (
    _instance: Virtualizer<HTMLDivElement, Element>,
    onChange: (rect: { width: number; height: number }) => void,
  ): undefined => {
    onChange({ width: 0, height });
    return undefined;
  };
}
