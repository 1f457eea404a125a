import { Alert, Anchor, Button, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { serverMessageOf } from '../../api/client';
import { useBootstrap } from '../../bootstrap';
import { SafeHtml } from '../../components/SafeHtml';
import type { LandingRecord } from '../shared/landing';
import { useRequestAccess } from './access-requests-api';

/**
 * Asking the owner for a record's restricted files, where the owner allows it: their conditions,
 * then a signed-in person's message, or a guest's name, address and message (the guest then
 * confirms the address from their inbox). Nothing when the owner takes no requests of the kind.
 */
export function AccessRequestForm({ record }: { record: LandingRecord }) {
  const { t } = useTranslation();
  const { user } = useBootstrap();
  const ask = useRequestAccess(record.id);
  const [message, setMessage] = useState('');
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const allowed = user ? record.requests.users : record.requests.guests;
  if (!allowed || record.isDraft) {
    return user || !record.requests.users ? null : (
      <Text size="sm">
        <Anchor component={Link} to={`/login?next=${encodeURIComponent(`/records/${record.id}`)}`}>
          {t('accessRequest.signInToAsk')}
        </Anchor>
      </Text>
    );
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    ask.mutate(user ? { message } : { message, email, full_name: name });
  }

  if (ask.data?.request) {
    return (
      <Alert color="teal" variant="light" role="status" title={t('accessRequest.sentTitle')}>
        <Text size="sm">
          {t('accessRequest.sent')}{' '}
          <Anchor component={Link} to={`/me/requests/${ask.data.request.id}`}>
            {t('accessRequest.follow')}
          </Anchor>
        </Text>
      </Alert>
    );
  }
  if (ask.data?.sent) {
    return (
      <Alert color="teal" variant="light" role="status" title={t('accessRequest.checkMailTitle')}>
        <Text size="sm">{t('accessRequest.checkMail', { email })}</Text>
      </Alert>
    );
  }

  return (
    <section aria-labelledby="access-request">
      <Stack gap="sm">
        <Title order={3} size="h4" id="access-request">
          {t('accessRequest.title')}
        </Title>
        {record.requests.conditions && (
          <div aria-label={t('accessRequest.conditions')} role="note">
            <SafeHtml html={record.requests.conditions} />
          </div>
        )}
        <form onSubmit={submit} aria-labelledby="access-request">
          <Stack gap="sm">
            {!user && (
              <>
                <TextInput
                  label={t('accessRequest.name')}
                  value={name}
                  onChange={(e) => setName(e.currentTarget.value)}
                  autoComplete="name"
                  required
                />
                <TextInput
                  label={t('accessRequest.email')}
                  type="email"
                  value={email}
                  onChange={(e) => setEmail(e.currentTarget.value)}
                  autoComplete="email"
                  required
                />
              </>
            )}
            <Textarea
              label={t('accessRequest.message')}
              description={t('accessRequest.messageHint')}
              value={message}
              onChange={(e) => setMessage(e.currentTarget.value)}
              rows={3}
            />
            {ask.isError && (
              <Alert color="red" variant="light" role="alert">
                {serverMessageOf(ask.error) ?? t('accessRequest.failed')}
              </Alert>
            )}
            <div>
              <Button type="submit" loading={ask.isPending}>
                {t('accessRequest.submit')}
              </Button>
            </div>
          </Stack>
        </form>
      </Stack>
    </section>
  );
}
