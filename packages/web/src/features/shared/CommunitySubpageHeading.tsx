import { Anchor, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import type { CommunityJson } from './communities';

/** The community's name linking back to its page, above the title of one of its pages. */
export function CommunitySubpageHeading({
  community,
  title,
}: {
  community: CommunityJson;
  title: (communityTitle: string) => string;
}) {
  const name = community.metadata.title ?? community.slug ?? '';
  return (
    <Stack gap={4}>
      <Text size="sm">
        <Anchor
          component={Link}
          to={`/communities/${encodeURIComponent(community.slug ?? community.id)}`}
        >
          {name}
        </Anchor>
      </Text>
      <Title order={1}>{title(name)}</Title>
    </Stack>
  );
}
