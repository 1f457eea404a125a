import { Container } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router';
import { useBootstrap } from '../bootstrap';
import { SkipLink } from '../components/SkipLink';
import { AppHeader } from './AppHeader';
import { ServerErrorPage } from './ServerErrorPage';

const MAIN_ID = 'main-content';

/** The frame of every page: skip link, header, main landmark. */
export function AppLayout() {
  const { t } = useTranslation();
  const { error } = useBootstrap();
  const location = useLocation();
  // The bootstrap's error belongs to the page the server rendered, not to later navigations.
  const [initialLocationKey] = useState(location.key);
  const serverError = location.key === initialLocationKey ? error : null;

  return (
    <>
      <SkipLink targetId={MAIN_ID}>{t('app.skipToContent')}</SkipLink>
      <AppHeader />
      <Container component="main" id={MAIN_ID} tabIndex={-1} size="md" py="lg">
        {serverError ? <ServerErrorPage error={serverError} /> : <Outlet />}
      </Container>
    </>
  );
}
