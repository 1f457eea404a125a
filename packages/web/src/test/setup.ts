import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeAll, vi } from 'vitest';
import { preloadDialogs } from '../components/lazy-dialog';
import { loadLanguage } from '../i18n/i18n';

// Tests render in German as well; the app fetches a language before its first render, as here.
await loadLanguage('de');

// The app fetches a dialog's code when it first opens; tests open dialogs without waiting for it.
// After the test file's imports, which define the dialogs.
beforeAll(preloadDialogs);

// CI runs every project at once on two shared cores: a page rendering the whole deposit form
// can take seconds there, so findBy/waitFor wait for state far longer than the default second.
configure({ asyncUtilTimeout: 15_000 });

// Browser APIs Mantine reads that jsdom does not implement.
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string): MediaQueryList =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }) as MediaQueryList,
});

class ResizeObserverStub implements ResizeObserver {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}
window.ResizeObserver = ResizeObserverStub;

// Mantine's growing text area (the title) listens for web fonts to load.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', { value: new EventTarget() });
}

// Mantine's combobox scrolls the selected option into view.
Element.prototype.scrollIntoView = () => undefined;

// ProseMirror measures the caret's range to scroll it into view (the editor's autofocus).
Range.prototype.getClientRects = () => [] as unknown as DOMRectList;
Range.prototype.getBoundingClientRect = () => new DOMRect();

afterEach(() => {
  cleanup();
  // A test that takes over the clock gives it back even when it fails.
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  // Pages change the address with history.replaceState; each test starts at the root again.
  window.history.replaceState(null, '', '/');
  for (const cookie of document.cookie.split(';')) {
    const name = cookie.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT`;
  }
});
