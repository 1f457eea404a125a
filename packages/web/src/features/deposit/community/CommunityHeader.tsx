import { Button, Group, Paper, Stack, Text } from '@mantine/core';
import type { DepositFormValues } from '@cairn/shared';
import { useId, useState } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { CommunityBadges, CommunityLogo } from './CommunityBadges';
import { membershipRole, type CommunityJson, type Memberships } from './community-json';
import { CommunitySelectionModal } from '../dialogs';

/** What the header needs to know about the record and the editor's state. */
export interface CommunityRecordState {
  /** Not saved yet: anyone creating it may choose its community. */
  isNew: boolean;
  /** The record's `status` (draft, in_review, declined, …). */
  status?: string;
  /** `can_manage` on an existing record; without it the community cannot change. */
  canManage: boolean;
  /** `showCommunityHeader`: false for published records without (or with a deleted) community. */
  showHeader?: boolean;
  /** `showCommunitySelectionButton`: false for published and new-version drafts. */
  showSelectionButton?: boolean;
  /** `disableCommunitySelectionButton`: in review, or after a declined/expired review. */
  disableSelectionButton?: boolean;
}

export interface CommunityHeaderProps {
  /** The community chosen now (`null` when removed, `undefined` when none). */
  community: CommunityJson | null | undefined;
  record: CommunityRecordState;
  /** The person chose another community, or removed it (`null`). The core keeps the choice. */
  onChange: (community: CommunityJson | null) => void;
  /** `user_communities_memberships` from the configuration (community id → role). */
  memberships?: Memberships;
  /** Passed to the picker: a first submission honours communities' own upload forms. */
  isInitialSubmission?: boolean;
}

function disabledReason(record: CommunityRecordState) {
  if (!record.isNew && !record.canManage) return 'depositCommunity.header.noPermission' as const;
  if (!record.disableSelectionButton) return undefined;
  if (record.status === 'in_review') return 'depositCommunity.header.inReview' as const;
  if (record.status === 'declined' || record.status === 'expired')
    return 'depositCommunity.header.declined' as const;
  return 'depositCommunity.header.locked' as const;
}

/**
 * The community bar above the form, as InvenioRDM's: the chosen community's logo, title and badges,
 * or a prompt to choose one, with Change and Remove. Changing and removing are disabled on an
 * existing record the person cannot manage and when the editor's state locks the choice (in review,
 * declined, …), with the reason beside them.
 */
export function CommunityHeader({
  community,
  record,
  onChange,
  memberships,
  isInitialSubmission = true,
}: CommunityHeaderProps) {
  const { t } = useTranslation();
  const { control } = useFormContext<DepositFormValues>();
  const recordAccess = useWatch({ control, name: 'access.record' }) as string | undefined;
  const [opened, setOpened] = useState(false);
  const reasonId = useId();
  if (record.showHeader === false) return null;

  const reason = disabledReason(record);
  const disabled = reason !== undefined;
  const title = community?.metadata.title ?? '';
  const role = community ? membershipRole(community, memberships) : undefined;

  return (
    <Paper component="section" withBorder p="sm" aria-label={t('depositCommunity.header.label')}>
      <Group justify="space-between" wrap="wrap" gap="sm">
        {community ? (
          <Group gap="sm" wrap="nowrap">
            <CommunityLogo community={community} />
            <Stack gap={2}>
              <Text fw={500}>
                {community.is_ghost ? t('depositCommunity.header.ghost') : title}
              </Text>
              <Group gap={4}>
                <CommunityBadges community={community} role={role} />
              </Group>
            </Stack>
          </Group>
        ) : (
          <Text size="sm">{t('depositCommunity.header.prompt')}</Text>
        )}
        {record.showSelectionButton !== false && (
          <Stack gap={4} align="flex-end">
            <Group gap="xs">
              <Button
                type="button"
                variant="default"
                disabled={disabled}
                aria-describedby={reason ? reasonId : undefined}
                onClick={() => setOpened(true)}
              >
                {community
                  ? t('depositCommunity.header.change')
                  : t('depositCommunity.header.select')}
              </Button>
              {community && (
                <Button
                  type="button"
                  variant="subtle"
                  color="red"
                  disabled={disabled}
                  aria-label={t('depositCommunity.header.removeLabel', { title })}
                  aria-describedby={reason ? reasonId : undefined}
                  onClick={() => onChange(null)}
                >
                  {t('depositCommunity.header.remove')}
                </Button>
              )}
            </Group>
            {reason && (
              <Text size="xs" c="dimmed" id={reasonId}>
                {t(reason)}
              </Text>
            )}
          </Stack>
        )}
      </Group>
      {opened && (
        <CommunitySelectionModal
          opened
          onClose={() => setOpened(false)}
          selected={community}
          onSelect={onChange}
          isRecordPublic={recordAccess !== 'restricted'}
          isInitialSubmission={isInitialSubmission}
          {...(memberships ? { memberships } : {})}
        />
      )}
    </Paper>
  );
}
