import { Container } from '@mantine/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { ErrorNotice } from '../components/ErrorNotice';

/** Shown when rendering a page threw; the error is logged, not shown (it may be internal). */
export function RouteErrorPage({ error }: { error: unknown }) {
  const { t } = useTranslation();
  useEffect(() => {
    console.error(error);
  }, [error]);
  return (
    <Container component="main" size="md" py="lg">
      <ErrorNotice title={t('app.errorTitle')} message={t('app.errorText')} />
    </Container>
  );
}
