import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import { preloadDialogs } from '../components/lazy-dialog';
import { loadLanguage, loadLaterStrings } from '../i18n/i18n';

// Tests render in German as well; the app fetches a language before its first render, as here.
// Pages and dialogs wait for the English strings outside the first chunk; components rendered
// alone in a test have them at hand too.
await Promise.all([loadLanguage('de'), loadLaterStrings()]);

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

// Uppy checks the connection 3 s after it is built, on a timer it never clears; in a test file that
// ends sooner the check would run after jsdom is gone and fail the run ("window is not defined").
// Each upload engine listens for 'offline' as it is built, so the file waits out the newest one.
const UPPY_ONLINE_CHECK_MS = 3_000;
let lastOfflineListenerAt = 0;
const addWindowListener = window.addEventListener.bind(window);
window.addEventListener = ((...args: Parameters<typeof window.addEventListener>) => {
  if (args[0] === 'offline') lastOfflineListenerAt = performance.now();
  addWindowListener(...args);
}) as typeof window.addEventListener;
afterAll(async () => {
  const wait = lastOfflineListenerAt + UPPY_ONLINE_CHECK_MS + 50 - performance.now();
  if (lastOfflineListenerAt > 0 && wait > 0) await new Promise((done) => setTimeout(done, wait));
});

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
