import { Anchor, Badge, Button, Group, List, Stack, Text, Title } from '@mantine/core';
import { formatEdtfDate } from '@cairn/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useVersions, VERSIONS_PAGE_SIZE } from './api';
import { useVersionLabel } from '../shared/useVersionLabel';

/** The record's published versions, newest first, the latest marked and this one in bold. */
export function VersionsList({ id }: { id: string }) {
  const { t, i18n } = useTranslation();
  const versionLabel = useVersionLabel();
  const [page, setPage] = useState(1);
  const versions = useVersions(id, page, true);
  const hits = versions.data?.hits.hits ?? [];
  const total = (versions.data?.hits as { total?: number } | undefined)?.total ?? hits.length;

  return (
    <Stack component="section" aria-labelledby="record-versions" gap="xs">
      <Title order={2} size="h4" id="record-versions">
        {t('records.versions')}
      </Title>
      {versions.isError ? (
        <Text size="sm">{t('records.versionsFailed')}</Text>
      ) : (
        <List listStyleType="none" spacing={4}>
          {hits.map((v) => {
            const label = versionLabel(v);
            return (
              <List.Item key={v.id}>
                <Group gap="xs" wrap="nowrap">
                  {v.id === id ? (
                    <Text size="sm" fw={700} aria-current="page">
                      {label}
                    </Text>
                  ) : (
                    <Anchor component={Link} to={`/records/${encodeURIComponent(v.id)}`} size="sm">
                      {label}
                    </Anchor>
                  )}
                  {v.versions?.is_latest && (
                    <Badge size="xs" variant="light">
                      {t('records.latest')}
                    </Badge>
                  )}
                  <Text size="xs" c="dimmed">
                    {v.metadata.publication_date &&
                      formatEdtfDate(v.metadata.publication_date, i18n.language, 'medium')}
                  </Text>
                </Group>
              </List.Item>
            );
          })}
        </List>
      )}
      {total > VERSIONS_PAGE_SIZE && (
        <Group gap="xs">
          <Button
            variant="subtle"
            size="compact-sm"
            disabled={page === 1}
            onClick={() => setPage((p) => p - 1)}
          >
            {t('records.newerVersions')}
          </Button>
          <Button
            variant="subtle"
            size="compact-sm"
            disabled={total <= page * VERSIONS_PAGE_SIZE}
            onClick={() => setPage((p) => p + 1)}
          >
            {t('records.olderVersions')}
          </Button>
        </Group>
      )}
    </Stack>
  );
}
