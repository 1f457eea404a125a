import { Stack, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useParams } from 'react-router';
import { ApiError, serverMessageOf } from '../../api/client';
import { ErrorNotice } from '../../components/ErrorNotice';
import { PageLoader } from '../../components/PageLoader';
import { useDraft } from './api';
import { DepositForm } from './DepositForm';
import { PublishedWithoutDraft } from './PublishedWithoutDraft';

/** `/uploads/new` and `/uploads/:id`. */
export function DepositPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  // A new location (e.g. "New upload" clicked on this page) starts a fresh form.
  const { key: locationKey } = useLocation();
  const draft = useDraft(id);
  // The first save moves the address to /uploads/<id> without a navigation (unsaved input must
  // survive), so the page learns from the form that it now edits a draft.
  const [createdAt, setCreatedAt] = useState<string | null>(null);
  const created = createdAt === locationKey;

  let content;
  if (id === undefined) {
    content = (
      <DepositForm
        key={locationKey}
        initialDraft={null}
        onCreated={() => setCreatedAt(locationKey)}
      />
    );
  } else if (draft.isPending) {
    content = <PageLoader label={t('app.loading')} />;
  } else if (draft.isError) {
    content =
      draft.error instanceof ApiError && draft.error.code === 'PID_DOES_NOT_EXIST' ? (
        <PublishedWithoutDraft id={id} error={draft.error} />
      ) : (
        <ErrorNotice title={t('deposit.loadFailed')} message={serverMessageOf(draft.error)} />
      );
  } else {
    content = <DepositForm key={locationKey} initialDraft={draft.data} />;
  }

  return (
    <Stack>
      <Title order={1}>
        {id === undefined && !created ? t('deposit.newTitle') : t('deposit.editTitle')}
      </Title>
      {content}
    </Stack>
  );
}
