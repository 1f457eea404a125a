import { Anchor, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { DEPOSIT_SECTIONS } from './sections';

export interface SectionNavProps {
  /** Ids of the sections mounted on the page, in DEPOSIT_SECTIONS order. */
  sectionIds: readonly string[];
}

/** Links to the form's sections, so a long form is quick to move through (also by keyboard). */
export function SectionNav({ sectionIds }: SectionNavProps) {
  const { t } = useTranslation();
  const sections = DEPOSIT_SECTIONS.filter((section) => sectionIds.includes(section.id));
  return (
    <nav aria-label={t('deposit.sections.nav')}>
      <Group gap="md">
        {sections.map((section) => (
          <Anchor
            key={section.id}
            href={`#${section.id}`}
            size="sm"
            onClick={(event) => {
              // The router must not see a hash navigation: it would drop unsaved input.
              event.preventDefault();
              const element = document.getElementById(section.id);
              element?.scrollIntoView({ behavior: 'smooth', block: 'start' });
              element?.focus({ preventScroll: true });
            }}
          >
            {t(section.labelKey)}
          </Anchor>
        ))}
      </Group>
    </nav>
  );
}
