import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  NativeSelect,
  Stack,
  Switch,
  Table,
  Tabs,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { Link, useParams } from 'react-router';
import type { CommunityJson, MemberJson, MemberRequestJson } from '@cairn/shared';
import { serverMessageOf } from '../../api/client';
import { useBootstrap } from '../../bootstrap';
import { NotFoundPage } from '../../app/NotFoundPage';
import { ErrorNotice } from '../../components/ErrorNotice';
import { PageLoader } from '../../components/PageLoader';
import { PagePagination } from '../../components/PagePagination';
import { SearchForm } from '../../components/SearchForm';
import { CommunityLoader } from '../shared/CommunityLoader';
import { CommunitySubpageHeading } from '../shared/CommunitySubpageHeading';
import { roleKey } from '../shared/community-roles';
import { RequestStatusBadge } from '../shared/request-status';
import { UserPicker, type PickedUser } from '../shared/UserPicker';
import { MEMBERS_PAGE_SIZE } from './api';
import {
  manageableRoles,
  useMemberRequests,
  useMembersMutation,
  useMembersPage,
  type MemberRequestKind,
} from './members-api';

/**
 * `/communities/:slug/members`: its members, for its members; owners and managers also change
 * roles, remove people, invite, and decide on requests to join. The server enforces every rule
 * (an owner stays, managers give no more than manager); the page offers only what it allows and
 * shows the server's reason when something is refused.
 */
export function MembersPage() {
  const { slug = '' } = useParams();
  return <CommunityLoader slug={slug}>{(c) => <Members c={c} />}</CommunityLoader>;
}

function Members({ c }: { c: CommunityJson }) {
  const { t } = useTranslation();
  const { user } = useBootstrap();
  if (!user || (!user.isAdmin && !c.ui?.membership_role)) return <NotFoundPage />;
  const roles = manageableRoles(c, user.isAdmin);
  const manages = roles.length > 0;
  return (
    <Stack>
      <CommunitySubpageHeading
        community={c}
        title={(community) => t('members.title', { community })}
      />
      {manages ? (
        <Tabs defaultValue="members" keepMounted={false}>
          <Tabs.List>
            <Tabs.Tab value="members">{t('members.tabMembers')}</Tabs.Tab>
            <Tabs.Tab value="invitations">{t('members.tabInvitations')}</Tabs.Tab>
            <Tabs.Tab value="membership-requests">{t('members.tabRequests')}</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="members" pt="md">
            <MemberList c={c} roles={roles} />
          </Tabs.Panel>
          <Tabs.Panel value="invitations" pt="md">
            <Stack>
              <InviteForm c={c} roles={roles} />
              <MemberRequests c={c} kind="invitations" roles={roles} />
            </Stack>
          </Tabs.Panel>
          <Tabs.Panel value="membership-requests" pt="md">
            <MemberRequests c={c} kind="membership-requests" roles={roles} />
          </Tabs.Panel>
        </Tabs>
      ) : (
        <MemberList c={c} roles={roles} />
      )}
    </Stack>
  );
}

/** The roles the person may give, as a select's options in the page's language. */
function roleOptions(roles: readonly string[], t: TFunction) {
  return roles.map((r) => ({ value: r, label: t(roleKey(r)) }));
}

function MemberList({ c, roles }: { c: CommunityJson; roles: readonly string[] }) {
  const { t } = useTranslation();
  const [q, setQ] = useState('');
  const [page, setPage] = useState(1);
  const members = useMembersPage(c, q, page);
  return (
    <Stack>
      <SearchForm
        label={t('members.searchLabel')}
        submitLabel={t('members.search')}
        initialQuery={q}
        onSearch={(value) => {
          setQ(value);
          setPage(1);
        }}
      />
      {members.isPending ? (
        <PageLoader label={t('app.loading')} />
      ) : members.isError ? (
        <ErrorNotice title={t('members.loadFailed')} message={serverMessageOf(members.error)} />
      ) : members.data.hits.length === 0 ? (
        <Text>{t('members.none')}</Text>
      ) : (
        <>
          <Table striped>
            <Table.Caption>{t('members.count', { count: members.data.total })}</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('members.name')}</Table.Th>
                <Table.Th>{t('members.role')}</Table.Th>
                <Table.Th>{t('members.visibility')}</Table.Th>
                <Table.Th>{t('members.actions')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {members.data.hits.map((m) => (
                <MemberRow key={m.id} c={c} member={m} roles={roles} />
              ))}
            </Table.Tbody>
          </Table>
          <PagePagination
            total={Math.ceil(members.data.total / MEMBERS_PAGE_SIZE)}
            value={page}
            onChange={setPage}
          />
        </>
      )}
    </Stack>
  );
}

function MemberRow({
  c,
  member,
  roles,
}: {
  c: CommunityJson;
  member: MemberJson;
  roles: readonly string[];
}) {
  const { t } = useTranslation();
  const mutation = useMembersMutation(c);
  const name = member.member.name ?? member.member.id;
  const p = member.permissions;
  const role = member.role ?? 'reader';
  // A role the person may not touch (an owner, for a manager) is shown, not offered.
  const canChangeRole = p?.can_update_role === true && roles.includes(role);
  const userId = member.member.id;
  return (
    <Table.Tr>
      <Table.Td>
        {name}
        {member.is_current_user && (
          <Badge ml="xs" size="sm" variant="light">
            {t('members.you')}
          </Badge>
        )}
      </Table.Td>
      <Table.Td>
        {canChangeRole ? (
          <NativeSelect
            aria-label={t('members.roleOf', { name })}
            value={role}
            data={roleOptions(roles, t)}
            disabled={mutation.isPending}
            onChange={(e) => mutation.mutate({ kind: 'role', userId, role: e.currentTarget.value })}
          />
        ) : (
          t(roleKey(role))
        )}
      </Table.Td>
      <Table.Td>
        <Switch
          label={member.visible ? t('members.public') : t('members.hidden')}
          aria-label={t('members.visibleOf', { name })}
          checked={member.visible === true}
          disabled={p?.can_update_visible !== true || mutation.isPending}
          onChange={(e) =>
            mutation.mutate({ kind: 'visible', userId, visible: e.currentTarget.checked })
          }
        />
      </Table.Td>
      <Table.Td>
        {p?.can_leave ? (
          <Button
            size="xs"
            variant="light"
            color="red"
            loading={mutation.isPending}
            onClick={() => {
              if (window.confirm(t('members.confirmLeave', { community: c.metadata.title })))
                mutation.mutate({ kind: 'remove', userId });
            }}
          >
            {t('members.leave')}
          </Button>
        ) : p?.can_delete && roles.includes(role) ? (
          <Button
            size="xs"
            variant="light"
            color="red"
            loading={mutation.isPending}
            aria-label={t('members.removeName', { name })}
            onClick={() => {
              if (window.confirm(t('members.confirmRemove', { name })))
                mutation.mutate({ kind: 'remove', userId });
            }}
          >
            {t('members.remove')}
          </Button>
        ) : null}
        {mutation.isError && (
          <Text size="sm" c="red" role="alert">
            {serverMessageOf(mutation.error) ?? t('members.tryAgain')}
          </Text>
        )}
      </Table.Td>
    </Table.Tr>
  );
}

/** Find a person by name or address, choose the role and send them an invitation. */
function InviteForm({ c, roles }: { c: CommunityJson; roles: readonly string[] }) {
  const { t } = useTranslation();
  const [person, setPerson] = useState<PickedUser | null>(null);
  const [role, setRole] = useState<string>('reader');
  const [message, setMessage] = useState('');
  const [sent, setSent] = useState<string | null>(null);
  const mutation = useMembersMutation(c);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!person) return;
    mutation.mutate(
      { kind: 'invite', userId: person.id, role, message: message.trim() },
      {
        onSuccess: () => {
          setSent(person.name);
          setPerson(null);
          setMessage('');
        },
      },
    );
  }

  return (
    <form onSubmit={submit} aria-labelledby="invite-heading">
      <Stack gap="xs">
        <Title order={2} size="h3" id="invite-heading">
          {t('members.invite')}
        </Title>
        <UserPicker
          label={t('members.person')}
          description={t('members.personHint')}
          placeholder={t('members.personPlaceholder')}
          nothingFound={t('members.nobodyFound')}
          value={person}
          onChange={setPerson}
        />
        <NativeSelect
          label={t('members.role')}
          value={role}
          onChange={(e) => setRole(e.currentTarget.value)}
          data={roleOptions(roles, t)}
        />
        <Textarea
          label={t('members.message')}
          value={message}
          onChange={(e) => setMessage(e.currentTarget.value)}
          autosize
          minRows={2}
        />
        <Group>
          <Button type="submit" disabled={!person} loading={mutation.isPending}>
            {t('members.sendInvitation')}
          </Button>
        </Group>
        {mutation.isError && (
          <Alert color="red" role="alert">
            {serverMessageOf(mutation.error) ?? t('members.tryAgain')}
          </Alert>
        )}
        {sent && !mutation.isError && (
          <Text role="status">{t('members.invited', { name: sent })}</Text>
        )}
      </Stack>
    </form>
  );
}

/** The community's invitations (cancel) or requests to join (choose a role, accept, decline). */
function MemberRequests({
  c,
  kind,
  roles,
}: {
  c: CommunityJson;
  kind: MemberRequestKind;
  roles: readonly string[];
}) {
  const { t } = useTranslation();
  const list = useMemberRequests(c, kind);
  const heading = kind === 'invitations' ? t('members.invitations') : t('members.requests');
  return (
    <section aria-label={heading}>
      {kind === 'invitations' && (
        <Title order={2} size="h3" mb="xs">
          {heading}
        </Title>
      )}
      {list.isPending ? (
        <PageLoader label={t('app.loading')} />
      ) : list.isError ? (
        <ErrorNotice title={t('members.loadFailed')} message={serverMessageOf(list.error)} />
      ) : list.data.hits.length === 0 ? (
        <Text>{kind === 'invitations' ? t('members.noInvitations') : t('members.noRequests')}</Text>
      ) : (
        <Table striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('members.name')}</Table.Th>
              <Table.Th>{t('members.role')}</Table.Th>
              <Table.Th>{t('members.status')}</Table.Th>
              <Table.Th>{t('members.actions')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.data.hits.map((hit) => (
              <MemberRequestRow key={hit.id} c={c} kind={kind} hit={hit} roles={roles} />
            ))}
          </Table.Tbody>
        </Table>
      )}
    </section>
  );
}

/** What the managers may decide on an invitation (cancel) or a request to join (the others). */
const DECISIONS = ['accept', 'decline', 'cancel'] as const;
const DECISION_LOOK = {
  // Filled teal is the theme's AA shade under white text.
  accept: { color: 'teal' },
  decline: { variant: 'light', color: 'red' },
  cancel: { variant: 'light', color: 'gray' },
} as const;
const DECISION_LABEL = {
  accept: 'requests.action.acceptMember',
  decline: 'requests.action.decline',
  cancel: 'members.cancelInvitation',
} as const;

function MemberRequestRow({
  c,
  kind,
  hit,
  roles,
}: {
  c: CommunityJson;
  kind: MemberRequestKind;
  hit: MemberRequestJson;
  roles: readonly string[];
}) {
  const { t } = useTranslation();
  const mutation = useMembersMutation(c);
  const name = hit.member.name ?? hit.member.id;
  const open = hit.request.is_open;
  const userId = hit.member.id;
  const requestId = hit.request.id;
  return (
    <Table.Tr>
      <Table.Td>
        <Anchor component={Link} to={`/me/requests/${encodeURIComponent(requestId)}`}>
          {name}
        </Anchor>
      </Table.Td>
      <Table.Td>
        {open && hit.permissions.can_update_role && roles.includes(hit.role) ? (
          <NativeSelect
            aria-label={t('members.roleOf', { name })}
            value={hit.role}
            data={roleOptions(roles, t)}
            disabled={mutation.isPending}
            onChange={(e) =>
              mutation.mutate({ kind: 'offer', of: kind, userId, role: e.currentTarget.value })
            }
          />
        ) : (
          t(roleKey(hit.role))
        )}
      </Table.Td>
      <Table.Td>
        <RequestStatusBadge status={hit.request.status} />
      </Table.Td>
      <Table.Td>
        <Group gap="xs">
          {DECISIONS.filter((d) => hit.permissions[`can_${d}`] === true).map((decision) => (
            <Button
              key={decision}
              size="xs"
              {...DECISION_LOOK[decision]}
              loading={mutation.isPending}
              aria-label={t(`members.${decision}Name`, { name })}
              onClick={() => mutation.mutate({ kind: 'decide', requestId, action: decision })}
            >
              {t(DECISION_LABEL[decision])}
            </Button>
          ))}
        </Group>
        {mutation.isError && (
          <Text size="sm" c="red" role="alert">
            {serverMessageOf(mutation.error) ?? t('members.tryAgain')}
          </Text>
        )}
      </Table.Td>
    </Table.Tr>
  );
}
