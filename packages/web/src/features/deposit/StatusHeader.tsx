import { Anchor, Badge, Group, Paper, Stack, Text } from '@mantine/core';
import { statusHeaderOf, type DraftRecordInfo, type StatusHeader as Header } from '@cairn/shared';
import { useTranslation } from 'react-i18next';

const COLOR: Record<Header['tone'], string> = {
  neutral: 'gray',
  info: 'blue',
  warning: 'orange',
  negative: 'red',
  positive: 'green',
};

/**
 * The draft's status with its explanation, in InvenioRDM's words. In review, it links to the
 * request page in a new tab. An unknown status throws "Status is undefined".
 */
export function StatusHeader({ record }: { record: DraftRecordInfo }) {
  const { t } = useTranslation();
  const header = statusHeaderOf(record);
  return (
    <Paper withBorder p="sm" aria-labelledby="deposit-status-title" component="section">
      <Stack gap={4}>
        <Group gap="xs">
          <Badge color={COLOR[header.tone]} variant="light" id="deposit-status-title">
            {t(`deposit.status.${header.textKey}.title`)}
          </Badge>
        </Group>
        <Text size="sm">{t(`deposit.status.${header.textKey}.message`)}</Text>
        {header.requestUrl && (
          <Anchor href={header.requestUrl} target="_blank" rel="noopener" size="sm">
            {t('deposit.status.viewRequest')}
          </Anchor>
        )}
      </Stack>
    </Paper>
  );
}
