import { List } from '@mantine/core';
import { curationPolicyOf } from '@cairn/shared';
import { useTranslation } from 'react-i18next';
import type { CommunityJson } from './api';

/**
 * The community's access rules in words: who sees it, who may submit, and whose submissions
 * are published without review (the same rules the server's permissions apply).
 */
export function CurationPolicy({ access }: { access: CommunityJson['access'] }) {
  const { t } = useTranslation();
  const { visibility, submission, review } = curationPolicyOf(access);
  return (
    <List spacing={4} mb="sm">
      <List.Item>{t(`communities.policy.visibility.${visibility}`)}</List.Item>
      <List.Item>{t(`communities.policy.submission.${submission}`)}</List.Item>
      <List.Item>{t(`communities.policy.review.${review}`)}</List.Item>
    </List>
  );
}
