import { Alert, Button, NumberInput, Stack, Switch, Textarea, Title } from '@mantine/core';
import { LINK_EXPIRATION_MAX_DAYS, type AccessSettings } from '@cairn/shared';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { serverMessageOf } from '../../../api/client';
import { useUpdateAccessSettings } from './share-api';

/**
 * The owner's choice of who may ask for a record's restricted files (signed-in people, guests),
 * the conditions shown to them, and how long a guest's link lasts once accepted; saved with
 * `PUT /api/records/{id}/access`. Self-contained: the share dialog holds it.
 */
export function AccessRequestSettings({
  recordId,
  settings,
}: {
  recordId: string;
  settings: AccessSettings;
}) {
  const { t } = useTranslation();
  const save = useUpdateAccessSettings(recordId);
  const [users, setUsers] = useState(settings.allow_user_requests);
  const [guests, setGuests] = useState(settings.allow_guest_requests);
  const [conditions, setConditions] = useState(settings.accept_conditions_text ?? '');
  const [days, setDays] = useState<number>(settings.secret_link_expiration ?? 0);

  function submit(event: FormEvent) {
    event.preventDefault();
    save.mutate({
      allow_user_requests: users,
      allow_guest_requests: guests,
      accept_conditions_text: conditions.trim() ? conditions : null,
      secret_link_expiration: days,
    });
  }

  return (
    <section aria-labelledby="access-request-settings">
      <form onSubmit={submit}>
        <Stack gap="sm">
          <Title order={3} size="h4" id="access-request-settings">
            {t('accessSettings.title')}
          </Title>
          <Switch
            label={t('accessSettings.allowUsers')}
            checked={users}
            onChange={(e) => setUsers(e.currentTarget.checked)}
          />
          <Switch
            label={t('accessSettings.allowGuests')}
            checked={guests}
            onChange={(e) => setGuests(e.currentTarget.checked)}
          />
          <Textarea
            label={t('accessSettings.conditions')}
            description={t('accessSettings.conditionsHint')}
            value={conditions}
            onChange={(e) => setConditions(e.currentTarget.value)}
            rows={3}
          />
          <NumberInput
            label={t('accessSettings.linkDays')}
            description={t('accessSettings.linkDaysHint')}
            min={0}
            max={LINK_EXPIRATION_MAX_DAYS}
            allowDecimal={false}
            allowNegative={false}
            value={days}
            onChange={(value) => setDays(typeof value === 'number' ? value : Number(value) || 0)}
          />
          {save.isError && (
            <Alert color="red" variant="light" role="alert">
              {serverMessageOf(save.error) ?? t('accessSettings.failed')}
            </Alert>
          )}
          {save.isSuccess && (
            <Alert color="teal" variant="light" role="status">
              {t('accessSettings.saved')}
            </Alert>
          )}
          <div>
            <Button type="submit" loading={save.isPending}>
              {t('accessSettings.save')}
            </Button>
          </div>
        </Stack>
      </form>
    </section>
  );
}
