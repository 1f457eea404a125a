import { Badge, Fieldset, Group, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export interface ComingSoonFieldProps {
  label: string;
  help?: ReactNode;
}

/**
 * A field the instance announces but does not offer yet (InvenioRDM's placeholder custom field):
 * its label and a "Coming soon" note, with nothing to fill in.
 */
export function ComingSoonField({ label, help }: ComingSoonFieldProps) {
  const { t } = useTranslation();
  return (
    <Fieldset
      variant="unstyled"
      disabled
      legend={
        <Group gap="xs" component="span">
          <Text component="span" size="sm" fw={500}>
            {label}
          </Text>
          <Badge variant="light" color="gray" component="span">
            {t('customFields.comingSoon')}
          </Badge>
        </Group>
      }
    >
      {help && (
        <Text size="xs" c="dimmed">
          {help}
        </Text>
      )}
    </Fieldset>
  );
}
