import { Alert, Button, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export interface ResumeBannerProps {
  /** Interrupted uploads whose files this browser can read again. */
  count: number;
  resuming: boolean;
  onResume: () => void;
}

/**
 * "N uploads were interrupted — Resume": one click (and the browser's permission prompt)
 * resumes every interrupted file whose handle was kept; only the missing parts are sent.
 */
export function ResumeBanner({ count, resuming, onResume }: ResumeBannerProps) {
  const { t } = useTranslation();
  if (count === 0) return null;
  return (
    <Alert color="blue" variant="light" role="region" aria-label={t('uploader.resume.label')}>
      <Group justify="space-between" wrap="nowrap">
        <div>
          <Text fw={600}>{t('uploader.resume.interrupted', { count })}</Text>
          <Text size="sm">{t('uploader.resume.help')}</Text>
        </div>
        <Button loading={resuming} onClick={onResume}>
          {t('uploader.resume.button')}
        </Button>
      </Group>
    </Alert>
  );
}
