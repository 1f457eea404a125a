import type { Locator, Page } from 'playwright-core';

/** More Tab presses than any page of the app has stops: a target not reached by then never is. */
const MAX_STOPS = 200;

/** What has the focus now and whether it is visibly marked, as read in the page. */
interface FocusStop {
  /** Tag, role and accessible-ish name, for messages: `BUTTON "Choose files"`. */
  label: string;
  /** `:focus-visible` matches: the browser treats this focus as a keyboard one. */
  focusVisible: boolean;
  /** The element draws an outline (style not `none`, width above 0). */
  outlined: boolean;
  /** The element is rendered with a size: focus on something unseen is focus lost. */
  shown: boolean;
}

function readFocus(page: Page): Promise<FocusStop> {
  return page.evaluate(() => {
    const element = document.activeElement;
    if (!(element instanceof HTMLElement) || element === document.body)
      return { label: 'BODY', focusVisible: false, outlined: false, shown: false };
    const style = getComputedStyle(element);
    const labelled = element.getAttribute('aria-labelledby');
    const name =
      element.getAttribute('aria-label') ??
      (labelled ? document.getElementById(labelled)?.textContent : null) ??
      (element as HTMLInputElement).labels?.[0]?.textContent ??
      element.textContent ??
      '';
    const role = element.getAttribute('role') ?? (element as HTMLInputElement).type ?? '';
    return {
      label: `${element.tagName}${role ? `[${role}]` : ''} "${name.trim().slice(0, 60)}"`,
      focusVisible: element.matches(':focus-visible'),
      outlined: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0,
      shown: element.checkVisibility() && element.getClientRects().length > 0,
    };
  });
}

/**
 * Fails unless the focused element shows that it has the focus: `:focus-visible` and an outline
 * (the app's focus ring, WCAG 2.4.7). Returns its description.
 */
export async function expectVisibleFocus(page: Page): Promise<string> {
  const stop = await readFocus(page);
  if (!stop.focusVisible || !stop.outlined || !stop.shown)
    throw new Error(
      `Focus is not visible on ${stop.label} (focus-visible: ${stop.focusVisible}, ` +
        `outline: ${stop.outlined}, shown: ${stop.shown}).`,
    );
  return stop.label;
}

/** Whether `target` is the focused element (read only: nothing is focused from here). */
export function hasFocus(target: Locator): Promise<boolean> {
  return target.evaluate((element) => element === document.activeElement);
}

/**
 * Presses Tab (Shift+Tab with `backwards`) until `target` has the focus, checking at every stop
 * on the way that the focus is visible, as a keyboard user would see it move. Fails naming the
 * stops passed when the target is not reached, i.e. when it cannot be reached by keyboard.
 * Returns the stops passed, the target last.
 */
export async function tabTo(
  page: Page,
  target: Locator,
  { backwards = false }: { backwards?: boolean } = {},
): Promise<string[]> {
  await target.waitFor();
  const key = backwards ? 'Shift+Tab' : 'Tab';
  const stops: string[] = [];
  for (let i = 0; i < MAX_STOPS; i++) {
    await page.keyboard.press(key);
    const stop = await readFocus(page);
    stops.push(stop.label);
    // The browser's own UI beyond the page's last stop, where the page draws nothing.
    if (stop.label !== 'BODY') await expectVisibleFocus(page);
    if (await hasFocus(target)) {
      if (process.env.CAIRN_E2E_PRINT_STOPS) console.log(`${key}:\n  ${stops.join('\n  ')}`);
      return stops;
    }
  }
  throw new Error(`${key} never reached the target; stops passed:\n${stops.join('\n')}`);
}

/** Presses `key` with `target` focused (reached by Tab first), e.g. Enter on a button. */
export async function activate(page: Page, target: Locator, key = 'Enter'): Promise<void> {
  if (!(await hasFocus(target))) await tabTo(page, target);
  await page.keyboard.press(key);
}
