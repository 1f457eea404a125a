import { Button, Grid, Group, NativeSelect, Stack, Text, Title } from '@mantine/core';
import type { RecordFacet } from '@cairn/shared';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { serverMessageOf } from '../../api/client';
import type { RecordJson } from '../../api/records';
import { PageLoader } from '../../components/PageLoader';
import { PagePagination } from '../../components/PagePagination';
import { SearchForm } from '../../components/SearchForm';
import type { HighlightTerms } from '../shared/highlight';
import { RecordResultItem } from '../shared/RecordResultItem';
import { useRecordSearch } from '../shared/record-search';
import { highlightTermsOf } from './query-terms';
import { QuerySyntaxHelp } from './QuerySyntaxHelp';
import { SearchFacets } from './SearchFacets';
import {
  addressParamsOf,
  apiParamsOf,
  changeSearch,
  PAGE_SIZES,
  readSearchState,
  SEARCH_SORTS,
  sortOf,
  toggleFilter,
  type SearchChange,
  type SearchSort,
  type SearchState,
} from './search-state';

/**
 * `/search`: the published records, searched with InvenioRDM's query syntax, narrowed by facets,
 * sorted and paged. Every choice is in the address and goes to the API under the same names.
 */
export function SearchPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const state = useMemo(() => readSearchState(params), [params]);
  const search = useRecordSearch(useMemo(() => apiParamsOf(state), [state]));
  const terms = useMemo(() => highlightTermsOf(state.q), [state.q]);

  function update(change: SearchChange) {
    setParams(addressParamsOf(changeSearch(state, change)));
  }

  // The server's own words first: a query it cannot parse says where, which the reader needs.
  const serverMessage = search.isError ? serverMessageOf(search.error) : undefined;
  const failure = search.isError
    ? serverMessage
      ? t('search.queryFailed', { message: serverMessage })
      : t('search.failed')
    : undefined;
  const data = search.isError ? undefined : search.data;
  const total = data?.hits.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / state.size));
  const sort = sortOf(state);

  return (
    <Stack>
      <Title order={1}>{t('search.title')}</Title>
      <SearchForm
        label={t('search.queryLabel')}
        submitLabel={t('search.submit')}
        initialQuery={state.q}
        onSearch={(q) => update({ q })}
        size="md"
        error={failure}
      >
        <QuerySyntaxHelp size="md" />
      </SearchForm>
      {search.isPending ? (
        <PageLoader label={t('app.loading')} />
      ) : data ? (
        <Grid gap="xl">
          <Grid.Col span={{ base: 12, md: 3 }}>
            <SearchFacets
              aggregations={data.aggregations ?? {}}
              selected={state.filters}
              onToggle={(facet: RecordFacet, value, checked) =>
                update({ filters: toggleFilter(state.filters, facet, value, checked) })
              }
              onClear={() => update({ filters: {} })}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 9 }}>
            <Stack
              component="section"
              aria-labelledby="search-results-heading"
              aria-busy={search.isPlaceholderData}
            >
              <Group justify="space-between" align="flex-end">
                <Stack gap={0}>
                  <Title order={2} size="h4" id="search-results-heading">
                    {t('search.results')}
                  </Title>
                  <Text size="sm" c="dimmed" aria-live="polite">
                    {t('search.count', { count: total })}
                  </Text>
                </Stack>
                <Group gap="sm">
                  <NativeSelect
                    label={t('search.sortLabel')}
                    value={sort}
                    onChange={(event) => update({ sort: event.currentTarget.value as SearchSort })}
                    data={SEARCH_SORTS.filter((s) => s !== 'bestmatch' || state.q).map((s) => ({
                      value: s,
                      label: t(`search.sort.${s}`),
                    }))}
                  />
                  <NativeSelect
                    label={t('search.sizeLabel')}
                    value={String(state.size)}
                    onChange={(event) => update({ size: Number(event.currentTarget.value) })}
                    data={PAGE_SIZES.map(String)}
                  />
                </Group>
              </Group>
              <Results
                state={state}
                hits={data.hits.hits}
                total={total}
                terms={terms}
                update={update}
              />
              <PagePagination
                total={pages}
                value={Math.min(state.page, pages)}
                onChange={(page) => update({ page })}
              />
            </Stack>
          </Grid.Col>
        </Grid>
      ) : null}
    </Stack>
  );
}

function Results({
  state,
  hits,
  total,
  terms,
  update,
}: {
  state: SearchState;
  hits: RecordJson[];
  total: number;
  terms: HighlightTerms;
  update: (change: SearchChange) => void;
}) {
  const { t } = useTranslation();
  if (hits.length > 0) {
    return (
      <Stack component="ul" gap="lg" p={0} m={0} style={{ listStyle: 'none' }}>
        {hits.map((record) => (
          <li key={record.id}>
            <RecordResultItem record={record} headingOrder={3} detailed terms={terms} />
          </li>
        ))}
      </Stack>
    );
  }
  if (total > 0) {
    // An address from an older search can point past the last page.
    return (
      <Stack align="flex-start">
        <Text>{t('search.pastLastPage')}</Text>
        <Button variant="light" onClick={() => update({ page: 1 })}>
          {t('search.firstPage')}
        </Button>
      </Stack>
    );
  }
  const narrowed = state.q !== '' || Object.keys(state.filters).length > 0;
  return <Text>{narrowed ? t('search.noMatch') : t('search.empty')}</Text>;
}
