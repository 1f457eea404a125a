import { Alert, Text } from '@mantine/core';
import type { ReactNode } from 'react';

export interface ErrorNoticeProps {
  title: string;
  message?: string;
  children?: ReactNode;
}

/** A failure the page cannot recover from by itself (a load that failed, an unknown page). */
export function ErrorNotice({ title, message, children }: ErrorNoticeProps) {
  return (
    <Alert color="red" variant="light" title={title}>
      {message && <Text size="sm">{message}</Text>}
      {children}
    </Alert>
  );
}
