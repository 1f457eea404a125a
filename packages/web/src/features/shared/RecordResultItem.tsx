import { Anchor, Badge, Group, Stack, Text, Title, type TitleOrder } from '@mantine/core';
import { formatEdtfDate } from '@cairn/shared';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatCreatorName, type RecordJson } from '../../api/records';
import { useBootstrap } from '../../bootstrap';
import { excerptOf, plainTextOf } from '../../lib/plain-text';
import { Highlighted, NO_HIGHLIGHT, type HighlightTerms } from './highlight';
import { AccessBadge, accessStatusOf, resourceTypeLabel } from './record-badges';
import { useVersionLabel } from './useVersionLabel';

/** Creators named in a result before "et al.". */
const CREATORS_SHOWN = 3;
/** Characters of the description a result shows. */
const EXCERPT_LENGTH = 280;

export interface RecordResultItemProps {
  record: RecordJson;
  /** The heading level of the title, below the list's own heading. */
  headingOrder: TitleOrder;
  /** Also the version and the start of the description. */
  detailed?: boolean;
  /** What the search matched, marked in the title and the description. */
  terms?: HighlightTerms;
}

/**
 * One published record in a list of them (search results, the latest records): its title linking
 * to its landing page, its first creators, when it was published, its type and access.
 */
export function RecordResultItem({
  record,
  headingOrder,
  detailed = false,
  terms = NO_HIGHLIGHT,
}: RecordResultItemProps) {
  const { t, i18n } = useTranslation();
  const { vocabularies } = useBootstrap();
  const versionLabel = useVersionLabel();
  const { metadata } = record;
  const creators = (metadata.creators ?? []).map(formatCreatorName).filter(Boolean);
  const shown = creators.slice(0, CREATORS_SHOWN).join('; ');
  const resourceType = resourceTypeLabel(record, i18n.language, vocabularies);
  const publicationDate =
    metadata.publication_date && formatEdtfDate(metadata.publication_date, i18n.language, 'long');
  const description = (record.metadata as { description?: unknown }).description;
  const excerpt = useMemo(
    () =>
      detailed && typeof description === 'string' && description
        ? excerptOf(plainTextOf(description), EXCERPT_LENGTH)
        : '',
    [description, detailed],
  );

  return (
    <Stack gap={4}>
      <Title order={headingOrder} size="h4">
        <Anchor component={Link} to={`/records/${encodeURIComponent(record.id)}`} inherit>
          {metadata.title ? (
            <Highlighted text={metadata.title} terms={terms} />
          ) : (
            t('records.untitled')
          )}
        </Anchor>
      </Title>
      {shown && (
        <Text size="sm">
          {creators.length > CREATORS_SHOWN ? t('results.etAl', { names: shown }) : shown}
        </Text>
      )}
      <Group gap="xs">
        {publicationDate && (
          <Text size="sm" c="dimmed">
            {t('records.published', { date: publicationDate })}
          </Text>
        )}
        {detailed && (
          <Badge variant="outline" color="gray" style={{ textTransform: 'none' }}>
            {versionLabel(record)}
          </Badge>
        )}
        {resourceType && (
          <Badge variant="light" color="blue">
            {resourceType}
          </Badge>
        )}
        <AccessBadge status={accessStatusOf(record)} />
      </Group>
      {excerpt && (
        <Text size="sm">
          <Highlighted text={excerpt} terms={terms} />
        </Text>
      )}
    </Stack>
  );
}
