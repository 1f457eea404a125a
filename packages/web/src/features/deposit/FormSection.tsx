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

/**
 * One titled section of the deposit form, focusable so a banner link can move to it. A section
 * off screen is left unrendered by the browser (`content-visibility: auto`): every frame drawn
 * while a person types otherwise lays out, paints and layers the whole form, which made a key in
 * the title cost about 5 ms more than in a bare text box even with 10 creators. The content stays
 * in the accessibility tree, in find-in-page and in tab order; the browser renders a section as
 * it nears the screen or takes focus. The height held for a section not yet rendered is a guess
 * the browser replaces with the real one once it has rendered it.
 */
export function FormSection({ id, labelKey, children }: FormSectionProps) {
  const { t } = useTranslation();
  return (
    <Stack
      component="section"
      id={id}
      tabIndex={-1}
      aria-labelledby={`${id}-heading`}
      gap="md"
      style={{ contentVisibility: 'auto', containIntrinsicSize: 'auto 600px' }}
    >
      <Title order={2} size="h3" id={`${id}-heading`}>
        {t(labelKey)}
      </Title>
      {children}
    </Stack>
  );
}
