import { List, type ListProps } from '@mantine/core';
import { curationPolicyOf, type CommunityAccessSettings } from '@cairn/shared';
import { useTranslation } from 'react-i18next';

export type CurationPolicyProps = Omit<ListProps, 'children'> & {
  access: CommunityAccessSettings | undefined;
};

/**
 * The community's access rules in words: who sees it, who may submit, and whose submissions
 * are published without review (the same rules the server's permissions apply). Shown on the
 * community's page and in the deposit form's community picker.
 */
export function CurationPolicy({ access, ...listProps }: CurationPolicyProps) {
  const { t } = useTranslation();
  const { visibility, submission, review } = curationPolicyOf(access);
  return (
    <List {...listProps}>
      <List.Item>{t(`communities.policy.visibility.${visibility}`)}</List.Item>
      <List.Item>{t(`communities.policy.submission.${submission}`)}</List.Item>
      <List.Item>{t(`communities.policy.review.${review}`)}</List.Item>
    </List>
  );
}
