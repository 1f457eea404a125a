import '@mantine/core/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { AppProviders } from './app/AppProviders';
import { createQueryClient, seedQueryCache } from './app/query-client';
import { routes } from './app/routes';
import { readBootstrap } from './bootstrap';
import { createI18n, pickLanguage } from './i18n/i18n';

const bootstrap = readBootstrap(document);
const language = pickLanguage(
  bootstrap.config.locales,
  bootstrap.config.defaultLocale,
  navigator.languages,
);
const i18n = createI18n(language);
document.documentElement.lang = language;

const queryClient = createQueryClient();
seedQueryCache(queryClient, bootstrap, window.location);
const router = createBrowserRouter(routes);

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element.');

createRoot(container).render(
  <StrictMode>
    <AppProviders bootstrap={bootstrap} queryClient={queryClient} i18n={i18n}>
      <RouterProvider router={router} />
    </AppProviders>
  </StrictMode>,
);
