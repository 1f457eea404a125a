import { Alert, Button, Group, Modal, NumberInput, Stack, Textarea, Title } from '@mantine/core';
import { LINK_EXPIRATION_MAX_DAYS } from '@cairn/shared';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { serverMessageOf } from '../../api/client';
import { accessSettingsOf } from '../shared/share/access-settings';
import { useRequestAction, useRequestTopic, type RequestJson } from './api';
import { textToCommentHtml } from './comment-html';

/** The actions this page offers, in this order; `submit` belongs to the deposit form. */
const ACTIONS = ['accept', 'decline', 'cancel'] as const;
type Action = (typeof ACTIONS)[number];

// Filled green (shade 9) is 4.4:1 under white text, below WCAG AA; teal is the theme's AA shade.
const COLORS: Record<Action, string> = { accept: 'teal', decline: 'red', cancel: 'gray' };

/**
 * Accept and decline (curators) and cancel (the submitter), each only when the server lists it
 * in `links.actions`; each asks for confirmation with an optional comment.
 */
export function RequestActions({ request }: { request: RequestJson }) {
  const { t } = useTranslation();
  const run = useRequestAction(request);
  const [open, setOpen] = useState<Action | null>(null);
  const [text, setText] = useState('');
  const guestAccess = request.type === 'guest-access-request';
  const accessRequest = guestAccess || request.type === 'user-access-request';
  // The record's settings hold the owner's default for a guest's link (the request page reads
  // the record anyway, so this is its cached answer).
  const topic = useRequestTopic(request.id, accessRequest ? request.topic?.record : undefined);
  // How many days the guest's link or the person's grant lasts (0: no end), chosen when
  // accepting; until chosen, the record's setting for a guest and no end for a person, as the
  // server decides without a choice.
  const [chosenDays, setChosenDays] = useState<number | undefined>(undefined);
  const linkDays =
    chosenDays ??
    (guestAccess && topic.data ? accessSettingsOf(topic.data.record).secret_link_expiration : 0);
  const offered = ACTIONS.filter((action) => request.links.actions[action] !== undefined);
  if (offered.length === 0) return null;
  // Accepting an invitation, a request to join or for access publishes nothing.
  const joining =
    request.type === 'community-invitation'
      ? 'acceptInvitation'
      : request.type === 'community-membership-request'
        ? 'acceptMembership'
        : request.type === 'user-access-request'
          ? 'acceptUserAccess'
          : guestAccess
            ? 'acceptGuestAccess'
            : undefined;
  const label = (action: Action) =>
    action === 'accept' && joining
      ? t('requests.action.acceptMember')
      : t(`requests.action.${action}`);

  function choose(action: Action) {
    run.reset();
    setText('');
    setChosenDays(undefined);
    setOpen(action);
  }

  function confirm(event: FormEvent) {
    event.preventDefault();
    if (!open) return;
    run.mutate(
      {
        action: open,
        html: textToCommentHtml(text),
        ...(open === 'accept' && accessRequest ? { linkDays } : {}),
      },
      { onSuccess: () => setOpen(null) },
    );
  }

  return (
    <section aria-labelledby="request-actions">
      <Title order={2} size="h3" id="request-actions" mb="xs">
        {t('requests.actions')}
      </Title>
      <Group>
        {offered.map((action) => (
          <Button
            key={action}
            color={COLORS[action]}
            variant={action === 'accept' ? 'filled' : 'light'}
            onClick={() => choose(action)}
          >
            {label(action)}
          </Button>
        ))}
      </Group>
      <Modal
        opened={open !== null}
        onClose={() => setOpen(null)}
        closeButtonProps={{ 'aria-label': t('requests.close') }}
        title={
          open === 'accept' && joining
            ? t(`requests.confirm.${joining}`)
            : open
              ? t(`requests.confirm.${open}`)
              : ''
        }
      >
        <form onSubmit={confirm}>
          <Stack>
            {open === 'accept' && accessRequest && (
              <NumberInput
                label={t(guestAccess ? 'requests.linkDays' : 'requests.grantDays')}
                description={t(guestAccess ? 'requests.linkDaysHint' : 'requests.grantDaysHint')}
                min={0}
                max={LINK_EXPIRATION_MAX_DAYS}
                allowDecimal={false}
                allowNegative={false}
                value={linkDays}
                onChange={(value) =>
                  setChosenDays(typeof value === 'number' ? value : Number(value) || 0)
                }
              />
            )}
            <Textarea
              label={t('requests.actionComment')}
              value={text}
              onChange={(event) => setText(event.currentTarget.value)}
              rows={3}
              data-autofocus
            />
            {run.isError && (
              <Alert color="red" variant="light" role="alert">
                {serverMessageOf(run.error) ?? t('requests.actionFailed')}
              </Alert>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setOpen(null)}>
                {t('requests.back')}
              </Button>
              {open && (
                <Button type="submit" color={COLORS[open]} loading={run.isPending}>
                  {label(open)}
                </Button>
              )}
            </Group>
          </Stack>
        </form>
      </Modal>
    </section>
  );
}
