import { Anchor, Group, List, Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { CommunityLogo } from '../shared/CommunityLogo';
import { useRecordCommunities } from '../shared/communities';

/** The communities the record belongs to, each with its logo and a link to its page. */
export function RecordCommunities({ id }: { id: string }) {
  const { t } = useTranslation();
  const communities = useRecordCommunities(id, true);
  const hits = communities.data?.hits ?? [];
  // Most records belong to no community; a heading over nothing would only be noise.
  if (hits.length === 0) return null;
  return (
    <Stack component="section" aria-labelledby="record-communities" gap="xs">
      <Title order={2} size="h4" id="record-communities">
        {t('records.communities')}
      </Title>
      <List listStyleType="none" spacing={6}>
        {hits.map((community) => (
          <List.Item key={community.id}>
            <Group gap="xs" wrap="nowrap">
              <CommunityLogo community={community} size={28} />
              <Anchor
                component={Link}
                to={`/communities/${encodeURIComponent(community.slug ?? community.id)}`}
                size="sm"
              >
                {community.metadata.title || community.slug}
              </Anchor>
            </Group>
          </List.Item>
        ))}
      </List>
    </Stack>
  );
}
