import { Button, Grid, Group, NativeSelect, Stack, Text, Title } from '@mantine/core';
import { RECORD_FACETS, type RecordFacet } from '@cairn/shared';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useAddressParams } from '../../../app/GuardedRouter';
import type { RecordJson } from '../../../api/records';
import { PageLoader } from '../../../components/PageLoader';
import { PagePagination } from '../../../components/PagePagination';
import { SearchForm } from '../../../components/SearchForm';
import type { HighlightTerms } from '../highlight';
import { RecordResultItem } from '../RecordResultItem';
import { useRecordSearch } from '../record-search';
import { highlightTermsOf } from './query-terms';
import { QuerySyntaxHelp } from './QuerySyntaxHelp';
import { useRefusedQueryMessage } from './refused-query';
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

export interface RecordSearchProps {
  /** Where the search goes: `/api/records`, or a community's records (the same parameters). */
  endpoint?: string;
  /** The facets offered; one the page fixes (a community's page, the community) is left out. */
  facets?: readonly RecordFacet[];
  /** The level of the filters' and results' headings, below the page's own. */
  headingOrder: 2 | 3;
  /** Names the search landmark and its box. */
  queryLabel: string;
  /** What to say when there is nothing to search at all. */
  emptyText: string;
}

/**
 * Published records searched with InvenioRDM's query syntax, narrowed by facets, sorted and
 * paged: the box with its syntax help, the facets with their counts, and the results. Every
 * choice is in the page's address and goes to the API under the same names, so a search can be
 * shared, bookmarked and walked with Back and Forward.
 */
export function RecordSearch({
  endpoint = '/api/records',
  facets = RECORD_FACETS,
  headingOrder,
  queryLabel,
  emptyText,
}: RecordSearchProps) {
  const { t } = useTranslation();
  const [params, setParams] = useAddressParams();
  const state = useMemo(() => readSearchState(params, facets), [params, facets]);
  const search = useRecordSearch(
    useMemo(() => apiParamsOf(state), [state]),
    endpoint,
  );
  const terms = useMemo(() => highlightTermsOf(state.q), [state.q]);

  function update(change: SearchChange) {
    setParams((current) => addressParamsOf(changeSearch(readSearchState(current, facets), change)));
  }

  const refused = useRefusedQueryMessage(search.error);
  const failure = search.isError ? (refused ?? t('search.failed')) : undefined;
  const data = search.isError ? undefined : search.data;
  const total = data?.hits.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / state.size));
  const sort = sortOf(state);

  return (
    <Stack>
      <SearchForm
        label={queryLabel}
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
              facets={facets}
              headingOrder={headingOrder}
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
                  <Title order={headingOrder} size="h4" id="search-results-heading">
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
                itemOrder={headingOrder === 2 ? 3 : 4}
                emptyText={emptyText}
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
  itemOrder,
  emptyText,
  update,
}: {
  state: SearchState;
  hits: RecordJson[];
  total: number;
  terms: HighlightTerms;
  itemOrder: 3 | 4;
  emptyText: string;
  update: (change: SearchChange) => void;
}) {
  const { t } = useTranslation();
  if (hits.length > 0) {
    return (
      <Stack component="ul" gap="lg" p={0} m={0} style={{ listStyle: 'none' }}>
        {hits.map((record) => (
          <li key={record.id}>
            <RecordResultItem record={record} headingOrder={itemOrder} detailed terms={terms} />
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
  return <Text>{narrowed ? t('search.noMatch') : emptyText}</Text>;
}
