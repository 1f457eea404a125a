import '@mantine/core/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppProviders } from './app/AppProviders';
import { createQueryClient, seedQueryCache } from './app/query-client';
import { AppRoutes } from './app/AppRoutes';
import { createAppHistory, GuardedRouter } from './app/GuardedRouter';
import { preloadPage } from './app/routes';
import { BootstrapErrorPage } from './app/BootstrapErrorPage';
import { BootstrapSchema, readBootstrap, UnreadableBootstrapError } from './bootstrap';
import { createApiClient, readCookie } from './api/client';
import { startEarlyListing } from './features/shared/files-listing';
import {
  createI18n,
  LANGUAGE_COOKIE,
  loadLanguage,
  pickLanguage,
  preferredLanguages,
} from './i18n/i18n';

// The start is a function rather than the module's own top-level awaits: a module that awaits at
// its top level makes the bundler give up its chunk optimisations for the whole app, and every
// module a page shares with a lazy chunk then became a request of its own in the page's first
// load (the deposit page's first load was 6 KB gzipped larger).
async function start(): Promise<void> {
  // First, so that the page's code downloads while the bootstrap is read.
  preloadPage(window.location.pathname);
  // A bootstrap that cannot be read leaves the page's user and permissions unknown: the app shows
  // only a page that says so, in the language the browser prefers.
  let unreadable = false;
  let bootstrap = BootstrapSchema.parse({});
  try {
    bootstrap = readBootstrap(document);
  } catch (error) {
    if (!(error instanceof UnreadableBootstrapError)) throw error;
    console.error(error);
    unreadable = true;
  }
  const apiClient = createApiClient(bootstrap);
  // Before the language and the page's code: a listing of thousands of files takes a while.
  if (!unreadable) startEarlyListing(apiClient, bootstrap, window.location);
  const language = pickLanguage(
    bootstrap.config.locales,
    bootstrap.config.defaultLocale,
    preferredLanguages(bootstrap.user?.locale, readCookie(LANGUAGE_COOKIE), navigator.languages),
  );
  // A language that cannot be fetched leaves the page in the fallback language, still usable.
  await loadLanguage(language).catch((error: unknown) => console.error(error));
  const i18n = createI18n(language);
  document.documentElement.lang = language;

  const queryClient = createQueryClient();
  seedQueryCache(queryClient, bootstrap, window.location);

  // The entry script is async (vite.config.ts): it may run before the parser reaches the body.
  if (document.readyState === 'loading' && !document.getElementById('root')) {
    await new Promise((resolve) =>
      document.addEventListener('DOMContentLoaded', resolve, { once: true }),
    );
  }
  const container = document.getElementById('root');
  if (!container) throw new Error('index.html has no #root element.');

  createRoot(container).render(
    <StrictMode>
      <AppProviders
        bootstrap={bootstrap}
        queryClient={queryClient}
        i18n={i18n}
        apiClient={apiClient}
      >
        {unreadable ? (
          <BootstrapErrorPage href={window.location.href} />
        ) : (
          <GuardedRouter history={createAppHistory()}>
            <AppRoutes />
          </GuardedRouter>
        )}
      </AppProviders>
    </StrictMode>,
  );
}

void start();
