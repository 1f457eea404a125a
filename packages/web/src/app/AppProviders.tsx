import { mergeThemeOverrides, Modal, MantineProvider } from '@mantine/core';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import type { i18n } from 'i18next';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { createApiClient, type ApiClient } from '../api/client';
import { ApiClientContext } from '../api/useApiClient';
import { BootstrapContext, type Bootstrap } from '../bootstrap';
import { cssVariablesResolver, theme } from './theme';

export interface AppProvidersProps {
  bootstrap: Bootstrap;
  queryClient: QueryClient;
  i18n: i18n;
  /** The page's API client, when the page made one before rendering (early requests). */
  apiClient?: ApiClient;
  /** `test` turns off Mantine's transitions and portals under jsdom. */
  env?: 'default' | 'test';
  children: ReactNode;
}

/** Everything a page needs around it: bootstrap, API client, server-state cache, i18n, theme. */
export function AppProviders({
  bootstrap,
  queryClient,
  i18n,
  env,
  apiClient: given,
  children,
}: AppProvidersProps) {
  const [apiClient] = useState(() => given ?? createApiClient(bootstrap));
  // Mantine's dialog close button is an icon without a name (axe: button-name); every dialog
  // gets one here, in the page's language, unless it names its own.
  // Followed, not read once: the header's language switch changes it while the page stays.
  const [language, setLanguage] = useState(i18n.language);
  useEffect(() => {
    const handleLanguageChanged = (next: string) => setLanguage(next);
    i18n.on('languageChanged', handleLanguageChanged);
    return () => i18n.off('languageChanged', handleLanguageChanged);
  }, [i18n]);
  const localisedTheme = useMemo(
    () =>
      mergeThemeOverrides(theme, {
        components: {
          Modal: Modal.extend({
            defaultProps: {
              closeButtonProps: { 'aria-label': i18n.t('app.close', { lng: language }) },
            },
          }),
        },
      }),
    [i18n, language],
  );
  return (
    <BootstrapContext value={bootstrap}>
      <ApiClientContext value={apiClient}>
        <QueryClientProvider client={queryClient}>
          <I18nextProvider i18n={i18n}>
            <MantineProvider
              theme={localisedTheme}
              cssVariablesResolver={cssVariablesResolver}
              env={env ?? 'default'}
            >
              {children}
            </MantineProvider>
          </I18nextProvider>
        </QueryClientProvider>
      </ApiClientContext>
    </BootstrapContext>
  );
}
