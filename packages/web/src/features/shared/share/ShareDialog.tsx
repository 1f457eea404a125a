import {
  Button,
  Checkbox,
  CopyButton,
  Group,
  Modal,
  NativeSelect,
  Stack,
  Table,
  Tabs,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import {
  GRANT_PERMISSIONS,
  SECRET_LINK_PERMISSIONS,
  type AccessSettings,
  type GrantJson,
  type GrantPermission,
  type SecretLinkJson,
  type SecretLinkPermission,
} from '@cairn/shared';
import { useState, type FormEvent, type KeyboardEvent, type ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { PageLoader } from '../../../components/PageLoader';
import { UserPicker, type PickedUser } from '../UserPicker';
import { AccessRequestSettings } from './AccessRequestSettings';
import {
  secretLinkUrl,
  shareErrorOf,
  useGrants,
  useSecretLinks,
  useShareMutation,
  type ShareChange,
} from './share-api';

export interface ShareDialogProps {
  opened: boolean;
  onClose: () => void;
  /** The record or draft id, as the page has it. */
  recordId: string;
  title: string;
  /** Whether the record was ever published (else links lead to the draft's preview). */
  isPublished: boolean;
  /** Who may ask for the restricted files, and on what terms (`parent.access.settings`). */
  accessSettings: AccessSettings;
}

/**
 * Share a record: secret links (create, copy, shorten, change, revoke) and grants to people
 * (find, choose the permission, change, revoke). The server decides who may; the page opens this
 * for those it names as managing the record, and every refusal shows the server's words.
 */
export function ShareDialog({
  opened,
  onClose,
  recordId,
  title,
  isPublished,
  accessSettings,
}: ShareDialogProps) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      size="xl"
      title={<span id="share-dialog-title">{t('share.title', { title })}</span>}
    >
      <Tabs defaultValue="links" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="links">{t('share.tabLinks')}</Tabs.Tab>
          <Tabs.Tab value="people">{t('share.tabPeople')}</Tabs.Tab>
          <Tabs.Tab value="requests">{t('share.tabRequests')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="links" pt="md">
          <LinksTab recordId={recordId} isPublished={isPublished} />
        </Tabs.Panel>
        <Tabs.Panel value="people" pt="md">
          <PeopleTab recordId={recordId} />
        </Tabs.Panel>
        <Tabs.Panel value="requests" pt="md">
          <AccessRequestSettings recordId={recordId} settings={accessSettings} />
        </Tabs.Panel>
      </Tabs>
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={onClose}>
          {t('share.close')}
        </Button>
      </Group>
    </Modal>
  );
}

function permissionOptions(permissions: readonly GrantPermission[], t: TFunction) {
  return permissions.map((p) => ({ value: p, label: t(`share.permission.${p}`) }));
}

/**
 * A day as the API takes it. A text box rather than the browser's date input, whose inner fields
 * take the focus without showing it (no :focus-visible on the input); the server judges the date
 * and says what is wrong with it.
 */
const DATE_INPUT = { inputMode: 'numeric', maxLength: 10 } as const;

function ErrorText({ error }: { error: unknown }) {
  const { t } = useTranslation();
  return (
    <Text size="sm" c="red" role="alert">
      {shareErrorOf(error) ?? t('share.tryAgain')}
    </Text>
  );
}

function LinksTab({ recordId, isPublished }: { recordId: string; isPublished: boolean }) {
  const { t } = useTranslation();
  const links = useSecretLinks(recordId);
  const create = useShareMutation(recordId);
  const [permission, setPermission] = useState<SecretLinkPermission>('view');
  const [expiresAt, setExpiresAt] = useState('');
  const [description, setDescription] = useState('');

  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate(
      { kind: 'create-link', permission, expiresAt, description: description.trim() },
      {
        onSuccess: () => {
          setExpiresAt('');
          setDescription('');
        },
      },
    );
  }

  return (
    <Stack>
      <form onSubmit={submit} aria-labelledby="share-new-link">
        <Stack gap="xs">
          <Title order={3} size="h4" id="share-new-link">
            {t('share.newLink')}
          </Title>
          <Group align="flex-end" wrap="wrap">
            <NativeSelect
              label={t('share.permissionLabel')}
              value={permission}
              onChange={(e) => setPermission(e.currentTarget.value as SecretLinkPermission)}
              data={permissionOptions(SECRET_LINK_PERMISSIONS, t)}
            />
            <TextInput
              label={t('share.expiresLabel')}
              {...DATE_INPUT}
              placeholder={t('share.datePlaceholder')}
              value={expiresAt}
              onChange={(e) => setExpiresAt(e.currentTarget.value)}
            />
            <TextInput
              label={t('share.descriptionLabel')}
              value={description}
              onChange={(e) => setDescription(e.currentTarget.value)}
              style={{ flex: 1 }}
            />
            <Button type="submit" loading={create.isPending}>
              {t('share.createLink')}
            </Button>
          </Group>
          <Text size="xs" c="dimmed">
            {t('share.linkHint')}
          </Text>
          {create.isError && <ErrorText error={create.error} />}
        </Stack>
      </form>
      <ShareTable
        query={links}
        empty={t('share.noLinks')}
        caption={(total) => t('share.linksCaption', { count: total })}
        columns={[
          t('share.link'),
          t('share.permissionLabel'),
          t('share.expiresLabel'),
          t('share.actions'),
        ]}
        row={(link: SecretLinkJson, index) => (
          <LinkRow
            key={link.id}
            recordId={recordId}
            link={link}
            name={link.description || t('share.linkN', { n: index + 1 })}
            url={secretLinkUrl(window.location.origin, recordId, link.token, isPublished)}
          />
        )}
      />
    </Stack>
  );
}

function LinkRow({
  recordId,
  link,
  name,
  url,
}: {
  recordId: string;
  link: SecretLinkJson;
  name: string;
  url: string;
}) {
  const { t } = useTranslation();
  const mutation = useShareMutation(recordId);
  const [expiry, setExpiry] = useState(link.expires_at ?? '');
  const change = (c: ShareChange) => mutation.mutate(c);

  /** A new expiry, once complete and different; the server refuses a later one. */
  function commitExpiry() {
    if (expiry && expiry !== (link.expires_at ?? ''))
      change({ kind: 'update-link', linkId: link.id, expiresAt: expiry });
  }

  return (
    <Table.Tr>
      <Table.Td>
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            {name}
          </Text>
          <Group gap="xs" wrap="nowrap">
            <TextInput
              readOnly
              size="xs"
              value={url}
              aria-label={t('share.urlOf', { name })}
              onFocus={(e) => e.currentTarget.select()}
              style={{ flex: 1, minWidth: '14rem' }}
            />
            <CopyButton value={url}>
              {({ copied, copy }) => (
                <Button
                  size="xs"
                  variant="light"
                  onClick={copy}
                  aria-label={t('share.copyName', { name })}
                >
                  {copied ? t('share.copied') : t('share.copy')}
                </Button>
              )}
            </CopyButton>
          </Group>
        </Stack>
      </Table.Td>
      <Table.Td>
        <NativeSelect
          size="xs"
          aria-label={t('share.permissionOf', { name })}
          value={link.permission}
          data={permissionOptions(SECRET_LINK_PERMISSIONS, t)}
          disabled={mutation.isPending}
          onChange={(e) =>
            change({
              kind: 'update-link',
              linkId: link.id,
              permission: e.currentTarget.value as SecretLinkPermission,
            })
          }
        />
      </Table.Td>
      <Table.Td>
        <TextInput
          size="xs"
          aria-label={t('share.expiryOf', { name })}
          description={link.expires_at ? undefined : t('share.noExpiry')}
          {...DATE_INPUT}
          placeholder={t('share.datePlaceholder')}
          value={expiry}
          disabled={mutation.isPending}
          onChange={(e) => setExpiry(e.currentTarget.value)}
          onBlur={commitExpiry}
          onKeyDown={(e: KeyboardEvent) => {
            // Enter sets the date here; it must not submit or close anything around.
            if (e.key === 'Enter') {
              e.preventDefault();
              commitExpiry();
            }
          }}
        />
      </Table.Td>
      <RevokeCell
        name={name}
        question={t('share.confirmRevokeLink', { name })}
        mutation={mutation}
        change={{ kind: 'revoke-link', linkId: link.id }}
      />
    </Table.Tr>
  );
}

function PeopleTab({ recordId }: { recordId: string }) {
  const { t } = useTranslation();
  const grants = useGrants(recordId);
  const add = useShareMutation(recordId);
  const [person, setPerson] = useState<PickedUser | null>(null);
  const [permission, setPermission] = useState<GrantPermission>('view');
  const [message, setMessage] = useState('');
  const [notify, setNotify] = useState(true);
  const [added, setAdded] = useState<string | null>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!person) return;
    add.mutate(
      { kind: 'grant', userId: person.id, permission, message: message.trim(), notify },
      {
        onSuccess: () => {
          setAdded(person.name);
          setPerson(null);
          setMessage('');
        },
      },
    );
  }

  return (
    <Stack>
      <form onSubmit={submit} aria-labelledby="share-add-person">
        <Stack gap="xs">
          <Title order={3} size="h4" id="share-add-person">
            {t('share.addPerson')}
          </Title>
          <UserPicker
            label={t('share.person')}
            description={t('share.personHint')}
            placeholder={t('share.personPlaceholder')}
            nothingFound={t('share.nobodyFound')}
            value={person}
            onChange={setPerson}
          />
          <NativeSelect
            label={t('share.permissionLabel')}
            value={permission}
            onChange={(e) => setPermission(e.currentTarget.value as GrantPermission)}
            data={permissionOptions(GRANT_PERMISSIONS, t)}
          />
          <Textarea
            label={t('share.message')}
            value={message}
            onChange={(e) => setMessage(e.currentTarget.value)}
            autosize
            minRows={2}
          />
          <Checkbox
            label={t('share.notify')}
            checked={notify}
            onChange={(e) => setNotify(e.currentTarget.checked)}
          />
          <Group>
            <Button type="submit" disabled={!person} loading={add.isPending}>
              {t('share.add')}
            </Button>
          </Group>
          {add.isError && <ErrorText error={add.error} />}
          {added && !add.isError && (
            <Text size="sm" role="status">
              {t('share.added', { name: added })}
            </Text>
          )}
        </Stack>
      </form>
      <ShareTable
        query={grants}
        empty={t('share.noPeople')}
        caption={(total) => t('share.peopleCaption', { count: total })}
        columns={[t('share.name'), t('share.permissionLabel'), t('share.actions')]}
        row={(grant: GrantJson) => (
          <GrantRow key={grant.subject.id} recordId={recordId} grant={grant} />
        )}
      />
    </Stack>
  );
}

function GrantRow({ recordId, grant }: { recordId: string; grant: GrantJson }) {
  const { t } = useTranslation();
  const mutation = useShareMutation(recordId);
  const userId = grant.subject.id;
  const name = grant.expanded?.subject.profile.full_name ?? userId;
  return (
    <Table.Tr>
      <Table.Td>{name}</Table.Td>
      <Table.Td>
        <NativeSelect
          size="xs"
          aria-label={t('share.permissionOf', { name })}
          value={grant.permission}
          data={permissionOptions(GRANT_PERMISSIONS, t)}
          disabled={mutation.isPending}
          onChange={(e) =>
            mutation.mutate({
              kind: 'update-grant',
              userId,
              permission: e.currentTarget.value as GrantPermission,
            })
          }
        />
      </Table.Td>
      <RevokeCell
        name={name}
        question={t('share.confirmRevokeGrant', { name })}
        mutation={mutation}
        change={{ kind: 'revoke-grant', userId }}
      />
    </Table.Tr>
  );
}

/** A list of links or grants: loading, its error, "none yet", or the table of its rows. */
function ShareTable<T>({
  query,
  empty,
  caption,
  columns,
  row,
}: {
  query: UseQueryResult<{ hits: T[]; total: number }>;
  empty: string;
  caption: (total: number) => string;
  columns: string[];
  row: (hit: T, index: number) => ReactNode;
}) {
  const { t } = useTranslation();
  if (query.isPending) return <PageLoader label={t('app.loading')} />;
  if (query.isError) return <ErrorText error={query.error} />;
  if (query.data.hits.length === 0) return <Text>{empty}</Text>;
  return (
    <Table>
      <Table.Caption>{caption(query.data.total)}</Table.Caption>
      <Table.Thead>
        <Table.Tr>
          {columns.map((column) => (
            <Table.Th key={column}>{column}</Table.Th>
          ))}
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>{query.data.hits.map(row)}</Table.Tbody>
    </Table>
  );
}

/** Revoke, after asking; with the row's error, if its last change was refused. */
function RevokeCell({
  name,
  question,
  mutation,
  change,
}: {
  name: string;
  question: string;
  mutation: ReturnType<typeof useShareMutation>;
  change: ShareChange;
}) {
  const { t } = useTranslation();
  return (
    <Table.Td>
      <Button
        size="xs"
        variant="light"
        color="red"
        loading={mutation.isPending && mutation.variables.kind === change.kind}
        aria-label={t('share.revokeName', { name })}
        onClick={() => {
          if (window.confirm(question)) mutation.mutate(change);
        }}
      >
        {t('share.revoke')}
      </Button>
      {mutation.isError && <ErrorText error={mutation.error} />}
    </Table.Td>
  );
}
