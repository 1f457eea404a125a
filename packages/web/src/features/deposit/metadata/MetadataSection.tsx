import { Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';

export interface MetadataSectionProps {
  /** The element id the feedback banner links to, e.g. `recommended-information`. */
  id: string;
  title: string;
  children: ReactNode;
}

/** One titled section of the deposit form, reachable from the banner's links. */
export function MetadataSection({ id, title, children }: MetadataSectionProps) {
  return (
    <Stack component="section" id={id} tabIndex={-1} aria-labelledby={`${id}-heading`} gap="md">
      <Title order={2} size="h3" id={`${id}-heading`}>
        {title}
      </Title>
      {children}
    </Stack>
  );
}
