import { Button, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { serverMessageOf } from '../../api/client';
import { useOpenDraft } from '../shared/records-api';

/**
 * Edit and New version on a landing page, for the record's owner (the page decides who that is;
 * the API refuses anyone else). Both open the resulting draft in the editor.
 */
export function OwnerActions({ id }: { id: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const open = useOpenDraft();

  function openDraft(kind: 'new-version' | 'edit') {
    open.mutate(
      { id, kind },
      { onSuccess: (draft) => void navigate(`/uploads/${encodeURIComponent(draft.id)}`) },
    );
  }

  return (
    <Stack gap={4}>
      <Group gap="xs" role="group" aria-label={t('records.ownerActions')}>
        <Button
          size="compact-sm"
          loading={open.isPending && open.variables.kind === 'edit'}
          onClick={() => openDraft('edit')}
        >
          {t('dashboard.edit')}
        </Button>
        <Button
          size="compact-sm"
          variant="light"
          loading={open.isPending && open.variables.kind === 'new-version'}
          onClick={() => openDraft('new-version')}
        >
          {t('dashboard.newVersion')}
        </Button>
      </Group>
      {open.isError && (
        <Text size="xs" c="red" role="alert">
          {serverMessageOf(open.error) ?? t('dashboard.actionFailed')}
        </Text>
      )}
    </Stack>
  );
}
