import { Alert, Anchor, List, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import { serverMessageOf } from '../../api/client';
import { formatCreatorName, type RecordJson } from '../../api/records';
import { useBootstrap } from '../../bootstrap';
import { ErrorNotice } from '../../components/ErrorNotice';
import { PageLoader } from '../../components/PageLoader';
import { useRecord } from './api';

/** `/records/:id`, the landing page; `?preview=1` shows the draft (reference §1.1 links). */
export function RecordPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const [searchParams] = useSearchParams();
  const isPreview = searchParams.get('preview') === '1';
  const record = useRecord(id, isPreview);

  return (
    <Stack>
      {isPreview && (
        <Alert color="blue" variant="light" role="status">
          <Text size="sm">
            {t('records.previewBanner')}{' '}
            <Anchor component={Link} to={`/uploads/${encodeURIComponent(id)}`}>
              {t('records.backToEdit')}
            </Anchor>
          </Text>
        </Alert>
      )}
      {record.isPending ? (
        <PageLoader label={t('app.loading')} />
      ) : record.isError ? (
        <ErrorNotice title={t('records.loadFailed')} message={serverMessageOf(record.error)} />
      ) : (
        <RecordDetails record={record.data} />
      )}
    </Stack>
  );
}

function RecordDetails({ record }: { record: RecordJson }) {
  const { t, i18n } = useTranslation();
  const { vocabularies } = useBootstrap();
  const { metadata, ui } = record;
  const creators = (metadata.creators ?? []).map(formatCreatorName).filter(Boolean);
  const resourceType = metadata.resource_type;
  const resourceTypeTitle =
    ui?.resource_type?.title_l10n ??
    resourceType?.title?.[i18n.language] ??
    resourceType?.title?.['en'] ??
    vocabularies.resourcetypes.find((entry) => entry.id === resourceType?.id)?.title ??
    resourceType?.id;
  const publicationDate = ui?.publication_date_l10n_long ?? metadata.publication_date;

  return (
    <Stack component="article" gap="md">
      <Title order={1}>{metadata.title ?? t('records.untitled')}</Title>
      {creators.length > 0 && (
        <section aria-labelledby="record-creators">
          <Title order={2} size="h4" id="record-creators">
            {t('records.creators')}
          </Title>
          <List listStyleType="none" spacing={2}>
            {creators.map((name, index) => (
              <List.Item key={`${index}-${name}`}>{name}</List.Item>
            ))}
          </List>
        </section>
      )}
      <dl>
        {publicationDate && (
          <>
            <Text component="dt" fw={600}>
              {t('records.publicationDate')}
            </Text>
            <Text component="dd" ml={0} mb="sm">
              {publicationDate}
            </Text>
          </>
        )}
        {resourceTypeTitle && (
          <>
            <Text component="dt" fw={600}>
              {t('records.resourceType')}
            </Text>
            <Text component="dd" ml={0}>
              {resourceTypeTitle}
            </Text>
          </>
        )}
      </dl>
    </Stack>
  );
}
