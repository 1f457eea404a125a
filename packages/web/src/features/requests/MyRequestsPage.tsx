import { Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { RequestsInbox } from './RequestsInbox';

/**
 * `/me/requests`: every request the person created or may decide on as curator, manager or
 * owner of the receiving community, open ones first.
 */
export function MyRequestsPage() {
  const { t } = useTranslation();
  return (
    <Stack>
      <Title order={1}>{t('inbox.title')}</Title>
      <RequestsInbox scope={{ kind: 'mine' }} />
    </Stack>
  );
}
