import { Alert, Anchor, Badge, Grid, Group, Stack, Text, Title } from '@mantine/core';
import { formatEdtfDate } from '@cairn/shared';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import { serverMessageOf } from '../../api/client';
import type { RecordJson } from '../../api/records';
import { useBootstrap } from '../../bootstrap';
import { ErrorNotice } from '../../components/ErrorNotice';
import { PageLoader } from '../../components/PageLoader';
import { SafeHtml } from '../../components/SafeHtml';
import { useRecord } from '../shared/records-api';
import { CitationBox } from './CitationBox';
import { PeopleList } from './CreatorsList';
import { ExportLinks } from './ExportLinks';
import { FilesSection } from './FilesSection';
import { isOwner, landingView, type LandingRecord } from '../shared/landing';
import { AccessBadge, resourceTypeLabel } from '../shared/record-badges';
import { MetadataDetails } from './MetadataDetails';
import { OwnerActions } from './OwnerActions';
import { RecordCommunities } from './RecordCommunities';
import { useVersionLabel } from '../shared/useVersionLabel';
import { VersionsList } from './VersionsList';
import { ShareButton } from '../shared/share/ShareButton';
import { accessSettingsOf } from '../shared/share/access-settings';

/** `/records/:id`, the landing page; `?preview=1` shows the draft, as InvenioRDM links it. */
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
        <RecordDetails record={record.data} isPreview={isPreview} />
      )}
    </Stack>
  );
}

function RecordDetails({ record: json, isPreview }: { record: RecordJson; isPreview: boolean }) {
  const { t, i18n } = useTranslation();
  const { vocabularies, user, grant } = useBootstrap();
  const versionLabel = useVersionLabel();
  const record = useMemo(() => landingView(json), [json]);
  const { metadata, access } = record;
  const creators = metadata.creators ?? [];
  // The record's own titles and dates, worded in the page's language: `ui` is worded in the
  // site's default language, whatever language the person reads the page in.
  const resourceType = resourceTypeLabel(json, i18n.language, vocabularies);
  const publicationDate =
    metadata.publication_date && formatEdtfDate(metadata.publication_date, i18n.language, 'long');
  const accessStatus = access.status ?? 'open';
  const isPublished = !record.isDraft;
  // The parent's DOI stands for every version (a concept DOI); each version may have its own.
  const conceptDoi = (json.parent as { pids?: { doi?: { identifier?: string } } } | undefined)?.pids
    ?.doi?.identifier;

  return (
    <Grid gap="xl">
      <Grid.Col span={{ base: 12, md: 8 }}>
        <Stack component="article" gap="lg" aria-labelledby="record-title">
          {isPublished && !isPreview && json.versions?.is_latest === false && (
            <Alert color="yellow" variant="light">
              <Text size="sm">
                {t('records.newerVersion')}{' '}
                {/* The server's redirect: the latest is whichever version is newest when followed. */}
                <Anchor
                  href={json.links.latest_html ?? `/records/${encodeURIComponent(json.id)}/latest`}
                >
                  {t('records.viewLatest')}
                </Anchor>
              </Text>
            </Alert>
          )}
          <Group gap="xs">
            {publicationDate && (
              <Badge variant="outline" color="gray">
                {t('records.published', { date: publicationDate })}
              </Badge>
            )}
            {resourceType && (
              <Badge variant="light" color="blue">
                {resourceType}
              </Badge>
            )}
            <AccessBadge status={accessStatus} />
            <Badge variant="outline" color="gray" style={{ textTransform: 'none' }}>
              {versionLabel(json)}
            </Badge>
          </Group>
          <Title order={1} id="record-title">
            {metadata.title || t('records.untitled')}
          </Title>
          {creators.length > 0 && (
            <section aria-labelledby="record-creators">
              <Title order={2} size="h4" id="record-creators">
                {t('records.creators')}
              </Title>
              <PeopleList people={creators} labelId="record-creators" />
            </section>
          )}
          <AccessNotice record={record} />
          {metadata.description && (
            <section aria-labelledby="record-description">
              <Title order={2} size="h3" id="record-description">
                {t('records.description')}
              </Title>
              <SafeHtml html={metadata.description} />
            </section>
          )}
          <FilesSection record={record} />
          <MetadataDetails metadata={metadata} customFields={json.custom_fields ?? {}} />
        </Stack>
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 4 }}>
        <Stack gap="lg" component="aside" aria-label={t('records.sidebar')}>
          {isPublished && !isPreview && isOwner(record, user) && <OwnerActions id={record.id} />}
          {(isOwner(record, user) || grant?.permission === 'manage') && (
            <Group>
              <ShareButton
                recordId={record.id}
                title={metadata.title || t('records.untitled')}
                isPublished={json.is_published === true}
                accessSettings={accessSettingsOf(json)}
              />
            </Group>
          )}
          {record.doi && (
            <Stack gap={4}>
              <Text fw={600} size="sm">
                DOI
              </Text>
              <Anchor href={`https://doi.org/${record.doi}`} aria-label={`DOI ${record.doi}`}>
                <Badge
                  size="lg"
                  variant="filled"
                  color="blue"
                  style={{ textTransform: 'none', cursor: 'pointer' }}
                >
                  {record.doi}
                </Badge>
              </Anchor>
            </Stack>
          )}
          {conceptDoi && (
            <Text size="sm">
              {t('records.citeAllVersions')}{' '}
              <Anchor href={`https://doi.org/${conceptDoi}`}>{conceptDoi}</Anchor>
            </Text>
          )}
          {isPublished && !isPreview && <RecordCommunities id={record.id} />}
          {isPublished && !isPreview && <VersionsList id={record.id} />}
          {isPublished && !isPreview && <CitationBox id={record.id} />}
          {isPublished && !isPreview && <ExportLinks id={record.id} />}
        </Stack>
      </Grid.Col>
    </Grid>
  );
}

/** The record's access state in words: restricted, embargoed (until when, and why). */
function AccessNotice({ record }: { record: LandingRecord }) {
  const { t, i18n } = useTranslation();
  const { access } = record;
  if (access.status === 'open' || access.status === 'metadata-only' || !access.status) return null;
  const embargo = access.embargo?.active ? access.embargo : undefined;
  return (
    <Alert
      color={embargo ? 'yellow' : 'red'}
      variant="light"
      title={t(`records.access.${access.status}`, { defaultValue: access.status })}
    >
      <Text size="sm">
        {access.record === 'restricted'
          ? t('records.recordRestrictedText')
          : t('records.filesRestrictedText')}
      </Text>
      {embargo?.until && (
        <Text size="sm">
          {t('records.embargoUntil', {
            date: formatEdtfDate(embargo.until, i18n.language, 'long'),
          })}
        </Text>
      )}
      {embargo?.reason && (
        <Text size="sm">{t('records.embargoReason', { reason: embargo.reason })}</Text>
      )}
    </Alert>
  );
}
