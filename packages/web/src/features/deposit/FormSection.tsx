import { Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { DepositSectionLabelKey } from './sections';

export interface FormSectionProps {
  /** The section's id in DEPOSIT_SECTIONS: banner links and the section nav scroll to it. */
  id: string;
  labelKey: DepositSectionLabelKey;
  children: ReactNode;
}

/** One titled section of the deposit form, focusable so a banner link can move to it. */
export function FormSection({ id, labelKey, children }: FormSectionProps) {
  const { t } = useTranslation();
  return (
    <Stack component="section" id={id} tabIndex={-1} aria-labelledby={`${id}-heading`} gap="md">
      <Title order={2} size="h3" id={`${id}-heading`}>
        {t(labelKey)}
      </Title>
      {children}
    </Stack>
  );
}
