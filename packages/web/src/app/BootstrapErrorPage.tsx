import { Anchor, Container } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ErrorNotice } from '../components/ErrorNotice';

/**
 * The page's bootstrap could not be read (main.tsx): nothing of the page is shown, since its user
 * and permissions are unknown. Loading the address again fetches a fresh page.
 */
export function BootstrapErrorPage({ href }: { href: string }) {
  const { t } = useTranslation();
  return (
    <Container component="main" size="sm" py="xl">
      <ErrorNotice title={t('app.bootstrapErrorTitle')} message={t('app.bootstrapErrorText')}>
        <Anchor href={href} size="sm">
          {t('app.reload')}
        </Anchor>
      </ErrorNotice>
    </Container>
  );
}
