import { Alert, Anchor, Button, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { serverMessageOf } from '../../api/client';
import { useBootstrap } from '../../bootstrap';
import { ErrorNotice } from '../../components/ErrorNotice';
import { PageLoader } from '../../components/PageLoader';
import { isOwner, landingView } from '../shared/landing';
import { useOpenDraft, useRecord } from '../shared/records-api';
import { draftKeys } from './api';

/**
 * `/uploads/:id` of a published record with no open draft: its owner is offered to edit it
 * (which opens the edit draft here), anyone else is told the draft could not be loaded.
 */
export function PublishedWithoutDraft({ id, error }: { id: string; error: unknown }) {
  const { t } = useTranslation();
  const { user } = useBootstrap();
  const record = useRecord(id, false);
  const open = useOpenDraft();
  const queryClient = useQueryClient();

  if (record.isPending) return <PageLoader label={t('app.loading')} />;
  if (record.isError || !isOwner(landingView(record.data), user)) {
    return <ErrorNotice title={t('deposit.loadFailed')} message={serverMessageOf(error)} />;
  }
  return (
    <Alert color="blue" variant="light" title={t('deposit.publishedNoDraft.title')}>
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{t('deposit.publishedNoDraft.text')}</Text>
        <Anchor component={Link} to={`/records/${encodeURIComponent(id)}`} size="sm">
          {t('deposit.publishedNoDraft.view')}
        </Anchor>
        <Button
          loading={open.isPending}
          onClick={() =>
            open.mutate(
              { id, kind: 'edit' },
              { onSuccess: (draft) => queryClient.setQueryData(draftKeys.detail(id), draft) },
            )
          }
        >
          {t('deposit.publishedNoDraft.edit')}
        </Button>
        {open.isError && (
          <Text size="sm" c="red" role="alert">
            {serverMessageOf(open.error) ?? t('dashboard.actionFailed')}
          </Text>
        )}
      </Stack>
    </Alert>
  );
}
