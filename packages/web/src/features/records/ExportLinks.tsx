import { Anchor, List, Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { EXPORT_FORMAT_LINKS } from '@cairn/shared';

export function ExportLinks({ id }: { id: string }) {
  const { t } = useTranslation();
  const base = `/records/${encodeURIComponent(id)}/export`;
  return (
    <Stack component="section" aria-labelledby="record-export" gap="xs">
      <Title order={2} size="h4" id="record-export">
        {t('records.export')}
      </Title>
      <List listStyleType="none" spacing={2}>
        <List.Item>
          <Anchor href={`/api/records/${encodeURIComponent(id)}`} size="sm">
            JSON
          </Anchor>
        </List.Item>
        {EXPORT_FORMAT_LINKS.map((f) => (
          <List.Item key={f.name}>
            <Anchor href={`${base}/${f.name}`} size="sm">
              {f.label}
            </Anchor>
          </List.Item>
        ))}
      </List>
    </Stack>
  );
}
