import {
  Alert,
  Button,
  Code,
  CopyButton,
  Group,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { serverMessageOf } from '../../api/client';
import { ErrorNotice } from '../../components/ErrorNotice';
import { PageLoader } from '../../components/PageLoader';
import { EmailNotificationsSwitch } from './EmailNotificationsSwitch';
import { useCreateToken, useRevokeToken, useTokens, type CreatedToken } from './tokens-api';

/**
 * `/account/tokens`, the account page: whether the person receives e-mail, and personal access
 * tokens for API clients. A new token's secret is shown once, right after it is made; the server
 * keeps only its hash.
 */
export function TokensPage() {
  const { t, i18n } = useTranslation();
  const tokens = useTokens();
  const create = useCreateToken();
  const revoke = useRevokeToken();
  const [name, setName] = useState('');
  const [created, setCreated] = useState<CreatedToken | undefined>();
  const date = (iso: string) =>
    new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(
      new Date(iso),
    );

  function submit(event: FormEvent) {
    event.preventDefault();
    create.mutate(name.trim(), {
      onSuccess: (token) => {
        setCreated(token);
        setName('');
      },
    });
  }

  return (
    <Stack>
      <Title order={1}>{t('tokens.accountTitle')}</Title>
      <EmailNotificationsSwitch />
      <Title order={2} size="h3">
        {t('tokens.title')}
      </Title>
      <Text>{t('tokens.intro')}</Text>
      <form onSubmit={submit} aria-labelledby="new-token">
        <Title order={3} size="h4" id="new-token" mb="xs">
          {t('tokens.newToken')}
        </Title>
        <Group align="flex-end">
          <TextInput
            label={t('tokens.name')}
            description={t('tokens.nameHelp')}
            value={name}
            maxLength={100}
            onChange={(event) => setName(event.currentTarget.value)}
            style={{ flex: 1 }}
          />
          <Button type="submit" loading={create.isPending}>
            {t('tokens.create')}
          </Button>
        </Group>
      </form>
      {create.isError && (
        <ErrorNotice title={t('tokens.createFailed')} message={serverMessageOf(create.error)} />
      )}
      {created && (
        <Alert color="green" variant="light" title={t('tokens.createdTitle')} role="status">
          <Stack gap="xs">
            <Text size="sm">{t('tokens.shownOnce')}</Text>
            <Code block data-testid="new-token">
              {created.token}
            </Code>
            <Group>
              <CopyButton value={created.token}>
                {({ copied, copy }) => (
                  <Button size="compact-sm" variant="light" onClick={copy}>
                    {copied ? t('records.copied') : t('tokens.copy')}
                  </Button>
                )}
              </CopyButton>
            </Group>
          </Stack>
        </Alert>
      )}
      <Title order={3} size="h4">
        {t('tokens.yourTokens')}
      </Title>
      {tokens.isPending ? (
        <PageLoader label={t('app.loading')} />
      ) : tokens.isError ? (
        <ErrorNotice title={t('tokens.loadFailed')} message={serverMessageOf(tokens.error)} />
      ) : tokens.data.length === 0 ? (
        <Text>{t('tokens.none')}</Text>
      ) : (
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('tokens.name')}</Table.Th>
              <Table.Th>{t('tokens.created')}</Table.Th>
              <Table.Th>
                <VisuallyHidden>{t('tokens.actions')}</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {tokens.data.map((token) => (
              <Table.Tr key={token.id}>
                <Table.Td>{token.name}</Table.Td>
                <Table.Td>{date(token.created)}</Table.Td>
                <Table.Td>
                  <Button
                    size="compact-sm"
                    color="red"
                    variant="light"
                    loading={revoke.isPending && revoke.variables === token.id}
                    onClick={() => revoke.mutate(token.id)}
                  >
                    {t('tokens.revoke')}
                    <VisuallyHidden>: {token.name}</VisuallyHidden>
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {revoke.isError && (
        <ErrorNotice title={t('tokens.revokeFailed')} message={serverMessageOf(revoke.error)} />
      )}
    </Stack>
  );
}
