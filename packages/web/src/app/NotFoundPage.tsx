import { Anchor } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ErrorNotice } from '../components/ErrorNotice';

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <ErrorNotice title={t('app.notFoundTitle')} message={t('app.notFoundText')}>
      <Anchor component={Link} to="/" size="sm">
        {t('app.goHome')}
      </Anchor>
    </ErrorNotice>
  );
}
