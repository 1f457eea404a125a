import {
  ActionIcon,
  Alert,
  Anchor,
  Button,
  Group,
  Loader,
  Modal,
  Pagination,
  Popover,
  Stack,
  Tabs,
  Text,
  TextInput,
} from '@mantine/core';
import { COMMUNITY_PAGE_SIZE } from '@cairn/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CurationPolicy } from '../../shared/CurationPolicy';
import { useCommunitySearch, type CommunityScope } from './api';
import { CommunityBadges, CommunityLogo } from './CommunityBadges';
import {
  communitySelectBlock,
  membershipRole,
  type CommunityJson,
  type CommunitySelectBlock,
  type Memberships,
} from './community-json';

export interface CommunitySelectionModalProps {
  opened: boolean;
  onClose: () => void;
  /** The community chosen now, shown as Selected. */
  selected: CommunityJson | null | undefined;
  /** Called with the chosen community; the modal closes itself. */
  onSelect: (community: CommunityJson) => void;
  /** The form's `access.record` is public (restricted communities are then barred). */
  isRecordPublic: boolean;
  /** A first submission: communities with their own upload form send the person there. */
  isInitialSubmission?: boolean;
  /** `user_communities_memberships` from the configuration: roles in the draft's communities. */
  memberships?: Memberships;
}

/**
 * "Select a community" (InvenioRDM's community picker): all communities or the person's own,
 * searched and paged five at a time; each can be selected unless a rule of `communitySelectBlock`
 * bars it, and each has an info popup: what the community is, how it takes records, and why it is
 * barred when it is.
 */
export function CommunitySelectionModal({
  opened,
  onClose,
  selected,
  onSelect,
  isRecordPublic,
  isInitialSubmission = true,
  memberships,
}: CommunitySelectionModalProps) {
  const { t } = useTranslation();
  const [scope, setScope] = useState<CommunityScope>('all');
  const panelProps = {
    selected,
    isRecordPublic,
    isInitialSubmission,
    memberships,
    onSelect: (community: CommunityJson) => {
      onSelect(community);
      onClose();
    },
  };
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('depositCommunity.modal.title')}
      size="lg"
      closeButtonProps={{ 'aria-label': t('depositCommunity.modal.close') }}
    >
      <Tabs value={scope} onChange={(value) => setScope(value === 'mine' ? 'mine' : 'all')}>
        <Tabs.List aria-label={t('depositCommunity.modal.tabs')}>
          <Tabs.Tab value="all">{t('depositCommunity.modal.tabAll')}</Tabs.Tab>
          <Tabs.Tab value="mine">{t('depositCommunity.modal.tabMine')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="all" pt="md">
          {scope === 'all' && <CommunitySearchPanel scope="all" {...panelProps} />}
        </Tabs.Panel>
        <Tabs.Panel value="mine" pt="md">
          {scope === 'mine' && <CommunitySearchPanel scope="mine" {...panelProps} />}
        </Tabs.Panel>
      </Tabs>
    </Modal>
  );
}

interface SearchPanelProps {
  scope: CommunityScope;
  selected: CommunityJson | null | undefined;
  isRecordPublic: boolean;
  isInitialSubmission: boolean;
  memberships: Memberships | undefined;
  onSelect: (community: CommunityJson) => void;
}

function CommunitySearchPanel({ scope, ...itemProps }: SearchPanelProps) {
  const { t } = useTranslation();
  const [input, setInput] = useState('');
  const [query, setQuery] = useState('');
  const [page, setPage] = useState(1);
  const search = useCommunitySearch({ scope, query, page });
  const placeholder = t(
    scope === 'all' ? 'depositCommunity.modal.searchAll' : 'depositCommunity.modal.searchMine',
  );

  function submitSearch() {
    setQuery(input.trim());
    setPage(1);
  }

  const total = search.data?.hits.total ?? 0;
  const hits = search.data?.hits.hits ?? [];
  let results;
  if (search.isPending) {
    results = (
      <Group gap="xs" role="status">
        <Loader size="sm" />
        <Text size="sm">{t('depositCommunity.modal.loading')}</Text>
      </Group>
    );
  } else if (search.isError) {
    results = <Alert color="red">{t('depositCommunity.modal.loadFailed')}</Alert>;
  } else if (hits.length === 0) {
    results = (
      <Text size="sm" role="status">
        {t(
          scope === 'mine' && query === ''
            ? 'depositCommunity.modal.noMemberships'
            : 'depositCommunity.modal.noResults',
        )}
      </Text>
    );
  } else {
    results = (
      <Stack component="ul" aria-label={t('depositCommunity.modal.results')} gap="sm" p={0} m={0}>
        {hits.map((community) => (
          <CommunityResult key={community.id} community={community} {...itemProps} />
        ))}
      </Stack>
    );
  }

  return (
    <Stack gap="md">
      <Group gap="xs" align="flex-end" role="search">
        <TextInput
          flex={1}
          label={placeholder}
          placeholder={placeholder}
          type="search"
          value={input}
          onChange={(event) => setInput(event.currentTarget.value)}
          onKeyDown={(event) => {
            // Enter searches; it must not submit the deposit form around the dialog.
            if (event.key === 'Enter') {
              event.preventDefault();
              submitSearch();
            }
          }}
        />
        <Button type="button" variant="default" onClick={submitSearch}>
          {t('depositCommunity.modal.search')}
        </Button>
      </Group>
      {results}
      {total > COMMUNITY_PAGE_SIZE && (
        <Group component="nav" aria-label={t('depositCommunity.modal.pages')} justify="center">
          <Pagination
            total={Math.ceil(total / COMMUNITY_PAGE_SIZE)}
            value={page}
            onChange={setPage}
            size="sm"
          />
        </Group>
      )}
    </Stack>
  );
}

/**
 * The ⓘ popup of a result: why it cannot be selected when a rule bars it, then what the community
 * is about and how it takes records (its curation policy, in the words of the community pages). A
 * button, so it is reached and opened by keyboard too.
 */
function CommunityInfo({
  community,
  title,
  blockMessage,
}: {
  community: CommunityJson;
  title: string;
  blockMessage: string;
}) {
  const { t } = useTranslation();
  const description = community.metadata.description?.trim();
  return (
    <Popover width={300} withArrow position="left" trapFocus returnFocus>
      <Popover.Target>
        <ActionIcon
          variant="subtle"
          aria-label={t(
            blockMessage ? 'depositCommunity.modal.whyDisabled' : 'depositCommunity.modal.about',
            { title },
          )}
        >
          <span aria-hidden="true">ⓘ</span>
        </ActionIcon>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="xs">
          {blockMessage && (
            <Text size="sm" fw={500}>
              {blockMessage}
            </Text>
          )}
          {description && (
            <Text size="sm" lineClamp={6}>
              {description}
            </Text>
          )}
          <CurationPolicy access={community.access} size="sm" spacing={2} />
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}

const BLOCK_MESSAGE = {
  recordPublic: 'depositCommunity.blocked.recordPublic',
  membersOnly: 'depositCommunity.blocked.membersOnly',
  uploadForm: 'depositCommunity.blocked.uploadForm',
} as const satisfies Record<CommunitySelectBlock, string>;

type ResultProps = Omit<SearchPanelProps, 'scope'> & { community: CommunityJson };

function CommunityResult({
  community,
  selected,
  isRecordPublic,
  isInitialSubmission,
  memberships,
  onSelect,
}: ResultProps) {
  const { t } = useTranslation();
  const title = community.metadata.title ?? community.slug ?? community.id;
  const isSelected = selected?.id === community.id;
  const block = communitySelectBlock(community, { isRecordPublic, isInitialSubmission });
  const role = membershipRole(community, memberships);
  const blockMessage = block ? t(BLOCK_MESSAGE[block]) : '';

  return (
    <Group
      component="li"
      justify="space-between"
      wrap="nowrap"
      gap="sm"
      style={{ listStyle: 'none' }}
    >
      <Group gap="sm" wrap="nowrap">
        <CommunityLogo community={community} />
        <Stack gap={2}>
          <Text fw={500}>{title}</Text>
          <Group gap={4}>
            <CommunityBadges community={community} role={role} />
          </Group>
        </Stack>
      </Group>
      <Group gap="xs" wrap="nowrap">
        <CommunityInfo community={community} title={title} blockMessage={blockMessage} />
        {block === 'uploadForm' && community.slug && (
          <Anchor
            href={`/communities/${encodeURIComponent(community.slug)}`}
            aria-label={t('depositCommunity.modal.goToCommunityLabel', { title })}
            size="sm"
          >
            {t('depositCommunity.modal.goToCommunity')}
          </Anchor>
        )}
        <Button
          type="button"
          size="xs"
          variant={isSelected ? 'filled' : 'default'}
          disabled={block !== undefined}
          aria-pressed={isSelected}
          aria-label={t(
            isSelected
              ? 'depositCommunity.modal.selectedLabel'
              : 'depositCommunity.modal.selectLabel',
            { title },
          )}
          onClick={() => onSelect(community)}
        >
          {t(isSelected ? 'depositCommunity.modal.selected' : 'depositCommunity.modal.select')}
        </Button>
      </Group>
    </Group>
  );
}
