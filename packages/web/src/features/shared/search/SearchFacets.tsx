import { Button, Checkbox, Fieldset, Stack, Text, Title, type TitleOrder } from '@mantine/core';
import {
  RECORD_FACETS,
  type AggregationBucket,
  type Aggregations,
  type RecordFacet,
} from '@cairn/shared';
import { useTranslation } from 'react-i18next';
import type { FacetSelection } from './search-state';

export interface SearchFacetsProps {
  aggregations: Aggregations;
  selected: FacetSelection;
  onToggle: (facet: RecordFacet, value: string, checked: boolean) => void;
  onClear: () => void;
  /** The facets the page offers, in this order; the others' counts are not shown. */
  facets?: readonly RecordFacet[];
  /** The level of the group's heading, below the page's own. */
  headingOrder?: TitleOrder;
}

/**
 * A facet's buckets, with the values the reader ticked that the answer no longer counts (another
 * filter or the query left none) added as empty ones: a filter the reader cannot see could not
 * be unticked.
 */
function withSelected(buckets: AggregationBucket[], selected: string[]): AggregationBucket[] {
  const keys = new Set<string>();
  const collect = (list: AggregationBucket[]) => {
    for (const bucket of list) {
      keys.add(bucket.key);
      collect(bucket.inner?.buckets ?? []);
    }
  };
  collect(buckets);
  const missing = selected
    .filter((key) => !keys.has(key))
    .map((key): AggregationBucket => ({ key, doc_count: 0, label: key }));
  return [...buckets, ...missing];
}

/**
 * The search's facets, whichever the server counted, in the order of `facets`: each a group of
 * checkboxes under its name, a bucket's subtypes indented beneath it. A facet the server does not
 * name in `RECORD_FACETS` is left out, since it could not be sent back as a filter.
 */
export function SearchFacets({
  aggregations,
  selected,
  onToggle,
  onClear,
  facets: offered = RECORD_FACETS,
  headingOrder = 2,
}: SearchFacetsProps) {
  const { t } = useTranslation();
  const headings: Record<RecordFacet, string> = {
    resource_type: t('search.facets.resource_type'),
    access_status: t('search.facets.access_status'),
    file_type: t('search.facets.file_type'),
    language: t('search.facets.language'),
    subject: t('search.facets.subject'),
    community: t('search.facets.community'),
    publication_date: t('search.facets.publication_date'),
  };
  const facets = offered.flatMap((facet) => {
    const buckets = withSelected(aggregations[facet]?.buckets ?? [], selected[facet] ?? []);
    return buckets.length > 0 ? [{ facet, buckets }] : [];
  });
  const anySelected = Object.values(selected).some((values) => values.length > 0);
  if (facets.length === 0) return null;

  return (
    <Stack component="section" aria-labelledby="search-facets-heading" gap="md">
      <Title order={headingOrder} size="h4" id="search-facets-heading">
        {t('search.filters')}
      </Title>
      {anySelected && (
        <Button variant="subtle" size="compact-sm" onClick={onClear} style={{ alignSelf: 'start' }}>
          {t('search.clearFilters')}
        </Button>
      )}
      {facets.map(({ facet, buckets }) => (
        <Fieldset
          key={facet}
          legend={headings[facet]}
          variant="unstyled"
          styles={{ legend: { fontWeight: 600 } }}
        >
          <BucketList
            facet={facet}
            buckets={buckets}
            selected={selected[facet] ?? []}
            onToggle={onToggle}
          />
        </Fieldset>
      ))}
    </Stack>
  );
}

function BucketList({
  facet,
  buckets,
  selected,
  onToggle,
}: {
  facet: RecordFacet;
  buckets: AggregationBucket[];
  selected: string[];
  onToggle: SearchFacetsProps['onToggle'];
}) {
  const { t } = useTranslation();
  return (
    <Stack gap={6} mt={4}>
      {buckets.map((bucket) => {
        const inner = bucket.inner?.buckets ?? [];
        return (
          <Stack key={bucket.key} gap={6}>
            <Checkbox
              name={facet}
              value={bucket.key}
              checked={selected.includes(bucket.key)}
              onChange={(event) => onToggle(facet, bucket.key, event.currentTarget.checked)}
              label={
                <>
                  {bucket.label}{' '}
                  <Text span size="sm" c="dimmed">
                    {t('search.bucketCount', { count: bucket.doc_count })}
                  </Text>
                </>
              }
            />
            {inner.length > 0 && (
              <Stack pl="lg" role="group" aria-label={bucket.label}>
                <BucketList facet={facet} buckets={inner} selected={selected} onToggle={onToggle} />
              </Stack>
            )}
          </Stack>
        );
      })}
    </Stack>
  );
}
