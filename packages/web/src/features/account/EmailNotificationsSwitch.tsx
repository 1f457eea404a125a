import { Stack, Switch, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { PreferencesSchema } from '@cairn/shared';
import { useTranslation } from 'react-i18next';
import { serverMessageOf } from '../../api/client';
import { useApiClient } from '../../api/useApiClient';
import { useBootstrap } from '../../bootstrap';
import { ErrorNotice } from '../../components/ErrorNotice';

const emailKey = ['preferences', 'email_notifications'] as const;

/**
 * Whether the person receives e-mail about their requests (a preference kept with the account,
 * on unless turned off). The page knows the setting from its bootstrap; a change is saved at
 * once with `PUT /api/user/preferences` and shown as the server answered it.
 */
export function EmailNotificationsSwitch() {
  const { t } = useTranslation();
  const { user } = useBootstrap();
  const client = useApiClient();
  const queryClient = useQueryClient();
  const current = useQuery({
    queryKey: emailKey,
    queryFn: () => user?.emailNotifications ?? true,
    initialData: user?.emailNotifications ?? true,
    staleTime: Infinity,
  });
  const save = useMutation({
    mutationFn: async (on: boolean) =>
      PreferencesSchema.parse(
        await client.put('/api/user/preferences', { email_notifications: on }),
      ).email_notifications,
    onSuccess: (on) => queryClient.setQueryData(emailKey, on),
  });
  const checked = save.isPending ? save.variables : current.data;
  return (
    <Stack gap="xs">
      <Title order={2} size="h3">
        {t('notifications.title')}
      </Title>
      <Switch
        label={t('notifications.email')}
        description={t('notifications.emailHelp')}
        checked={checked}
        disabled={save.isPending}
        onChange={(event) => save.mutate(event.currentTarget.checked)}
      />
      {save.isError && (
        <ErrorNotice title={t('notifications.saveFailed')} message={serverMessageOf(save.error)} />
      )}
      {save.isSuccess && (
        <Text size="sm" role="status">
          {save.data ? t('notifications.savedOn') : t('notifications.savedOff')}
        </Text>
      )}
    </Stack>
  );
}
