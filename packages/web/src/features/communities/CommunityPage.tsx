import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  List,
  Stack,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { RECORD_FACETS } from '@cairn/shared';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { errorCodeOf, serverMessageOf } from '../../api/client';
import { ErrorNotice } from '../../components/ErrorNotice';
import { PageLoader } from '../../components/PageLoader';
import { SafeHtml } from '../../components/SafeHtml';
import { roleKey } from '../shared/community-roles';
import { RecordSearch } from '../shared/search/RecordSearch';
import { communityRecordsUrl, membersScopeOf, useCommunityMembers } from './api';
import type { CommunityJson } from '../shared/communities';
import { CommunityLogo } from '../shared/CommunityLogo';
import { CurationPolicy } from '../shared/CurationPolicy';
import { VerifiedBadge } from './VerifiedBadge';
import { manageableRoles, useRequestMembership } from './members-api';
import { useBootstrap } from '../../bootstrap';
import { useRequestList } from '../shared/request-lists';
import { mayCurate } from '../shared/community-roles';
import { CommunityLoader } from '../shared/CommunityLoader';

/** `/communities/:slug`: the community, its records, its curation policy and its members. */
export function CommunityPage() {
  const { slug = '' } = useParams();
  return <CommunityLoader slug={slug}>{(c) => <CommunityView c={c} />}</CommunityLoader>;
}

function CommunityView({ c }: { c: CommunityJson }) {
  const { t } = useTranslation();
  return (
    <Stack gap="lg">
      <Group wrap="nowrap" align="center">
        <CommunityLogo community={c} size={80} />
        <Stack gap={4}>
          <Title order={1}>{c.metadata.title ?? c.slug}</Title>
          <Group gap="xs">
            <VerifiedBadge community={c} />
            {c.ui?.type?.title_l10n && <Badge variant="outline">{c.ui.type.title_l10n}</Badge>}
            {c.access.visibility === 'restricted' && (
              <Badge color="gray" variant="light">
                {t('communities.restricted')}
              </Badge>
            )}
          </Group>
        </Stack>
      </Group>
      {c.metadata.description && <Text>{c.metadata.description}</Text>}
      {c.metadata.website && (
        <Anchor href={c.metadata.website} rel="noopener noreferrer">
          {c.metadata.website}
        </Anchor>
      )}
      <CommunityRequestsLink community={c} />
      <JoinCommunity community={c} />
      <CommunityRecords community={c} />
      <section aria-labelledby="community-policy">
        <Title order={2} size="h3" id="community-policy" mb="xs">
          {t('communities.curationPolicy')}
        </Title>
        <CurationPolicy access={c.access} spacing={4} mb="sm" />
        {c.metadata.curation_policy && <SafeHtml html={c.metadata.curation_policy} />}
      </section>
      <CommunityMembers community={c} />
    </Stack>
  );
}

/** For those who decide on its requests: a link to them, with how many are open. */
function CommunityRequestsLink({ community }: { community: CommunityJson }) {
  const { user } = useBootstrap();
  return mayCurate(community, user) ? <OpenRequestsLink community={community} /> : null;
}

function OpenRequestsLink({ community }: { community: CommunityJson }) {
  const { t } = useTranslation();
  const open = useRequestList(`/api/communities/${encodeURIComponent(community.id)}/requests`, {
    is_open: 'true',
    size: '1',
  });
  const count = open.data?.total;
  return (
    <Anchor
      component={Link}
      to={`/communities/${encodeURIComponent(community.slug ?? community.id)}/requests`}
    >
      {count === undefined ? t('inbox.communityLink') : t('inbox.communityLinkOpen', { count })}
    </Anchor>
  );
}

/**
 * For a signed-in person who is not a member of a community open to new members: a way to ask to
 * join, with an optional word to its managers; the request's page follows, where they answer.
 */
function JoinCommunity({ community }: { community: CommunityJson }) {
  const { user } = useBootstrap();
  if (!user || community.ui?.membership_role || community.access.member_policy === 'closed')
    return null;
  return <JoinForm community={community} />;
}

function JoinForm({ community }: { community: CommunityJson }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [message, setMessage] = useState('');
  const ask = useRequestMembership(community);
  if (!open)
    return (
      <Group>
        <Button variant="light" onClick={() => setOpen(true)}>
          {t('members.requestToJoin')}
        </Button>
      </Group>
    );
  return (
    <form
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        ask.mutate(message.trim(), {
          onSuccess: (request) => void navigate(`/me/requests/${encodeURIComponent(request.id)}`),
        });
      }}
    >
      <Stack gap="xs" maw={600}>
        <Textarea
          label={t('members.requestMessage')}
          value={message}
          onChange={(e) => setMessage(e.currentTarget.value)}
          autosize
          minRows={2}
          data-autofocus
        />
        <Group>
          <Button type="submit" loading={ask.isPending}>
            {t('members.sendRequest')}
          </Button>
        </Group>
        {ask.isError && (
          <Alert color="red" title={t('members.requestFailed')} role="alert">
            {serverMessageOf(ask.error)}
          </Alert>
        )}
      </Stack>
    </form>
  );
}

/** The facets a community's search offers: all but the community, which the page fixes. */
const COMMUNITY_FACETS = RECORD_FACETS.filter((facet) => facet !== 'community');

/**
 * The community's records, searched as on `/search` with the community fixed, every choice in the
 * page's address. Keyed by the community, so that another community's records are never shown
 * under this one's name while its own load.
 */
function CommunityRecords({ community }: { community: CommunityJson }) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="community-records">
      <Title order={2} size="h3" id="community-records" mb="xs">
        {t('communities.records')}
      </Title>
      <RecordSearch
        key={community.id}
        endpoint={communityRecordsUrl(community)}
        facets={COMMUNITY_FACETS}
        headingOrder={3}
        queryLabel={t('communities.searchRecords')}
        emptyText={t('communities.noRecords')}
      />
    </section>
  );
}

/**
 * The members, with their roles for those who belong to the community (the public list names no
 * roles); nothing but a note where the community does not show its members.
 */
function CommunityMembers({ community }: { community: CommunityJson }) {
  const { t } = useTranslation();
  const scope = membersScopeOf(community);
  const members = useCommunityMembers(community, scope);
  return (
    <section aria-labelledby="community-members">
      <Title order={2} size="h3" id="community-members" mb="xs">
        {t('communities.members')}
      </Title>
      {scope === 'all' && (
        <Anchor
          component={Link}
          to={`/communities/${encodeURIComponent(community.slug ?? community.id)}/members`}
          mb="xs"
          display="block"
        >
          {manageableRoles(community, false).length > 0
            ? t('members.manageLink')
            : t('members.allLink')}
        </Anchor>
      )}
      {scope === 'all' && community.access.members_visibility === 'restricted' && (
        <Text size="sm" c="dimmed" mb="xs">
          {t('communities.membersForMembers')}
        </Text>
      )}
      {scope === 'none' ? (
        <Text>{t('communities.membersHidden')}</Text>
      ) : members.isPending ? (
        <PageLoader label={t('app.loading')} />
      ) : members.isError ? (
        errorCodeOf(members.error) === 'PERMISSION_DENIED' ? (
          <Text>{t('communities.membersHidden')}</Text>
        ) : (
          <ErrorNotice
            title={t('communities.membersFailed')}
            message={serverMessageOf(members.error)}
          />
        )
      ) : members.data.hits.length === 0 ? (
        <Text>{t('communities.noMembers')}</Text>
      ) : (
        <>
          <List>
            {members.data.hits.map((m) => (
              <List.Item key={m.id}>
                <Group gap="xs" wrap="nowrap">
                  <Text span>{m.member.name ?? m.member.id}</Text>
                  {m.role && (
                    <Badge color="teal" variant="light">
                      {t(roleKey(m.role))}
                    </Badge>
                  )}
                </Group>
              </List.Item>
            ))}
          </List>
          {members.data.total > members.data.hits.length && (
            <Text size="sm" c="dimmed">
              {t('communities.moreMembers', {
                count: members.data.total - members.data.hits.length,
              })}
            </Text>
          )}
        </>
      )}
    </section>
  );
}
