import { Anchor } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ErrorNotice } from '../components/ErrorNotice';

export interface ServerErrorPageProps {
  error: { status: number; message: string };
}

/** The server could not render the requested page (bootstrap `error`). */
export function ServerErrorPage({ error }: ServerErrorPageProps) {
  const { t } = useTranslation();
  return (
    <ErrorNotice
      title={error.status === 404 ? t('app.notFoundTitle') : t('app.errorTitle')}
      message={error.message}
    >
      <Anchor component={Link} to="/" size="sm">
        {t('app.goHome')}
      </Anchor>
    </ErrorNotice>
  );
}
