import { Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { RecordSearch } from '../shared/search/RecordSearch';

/**
 * `/search`: the published records, searched with InvenioRDM's query syntax, narrowed by facets,
 * sorted and paged. Every choice is in the address and goes to the API under the same names.
 */
export function SearchPage() {
  const { t } = useTranslation();
  return (
    <Stack>
      <Title order={1}>{t('search.title')}</Title>
      <RecordSearch
        headingOrder={2}
        queryLabel={t('search.queryLabel')}
        emptyText={t('search.empty')}
      />
    </Stack>
  );
}
