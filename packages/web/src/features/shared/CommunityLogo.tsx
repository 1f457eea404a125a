import { Image } from '@mantine/core';
import { toRequestPath } from '../../api/client';
import type { CommunityJson } from './communities';

/** The logo, when the community has one; decorative beside the title, so no alternative text. */
export function CommunityLogo({ community, size }: { community: CommunityJson; size: number }) {
  if (!community.ui?.has_logo || !community.links.logo) return null;
  return (
    <Image
      src={toRequestPath(community.links.logo)}
      alt=""
      w={size}
      h={size}
      fit="contain"
      radius="sm"
    />
  );
}
