import { Anchor, List, Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** The export formats of `/records/{id}/export/{name}` (the server's EXPORT_FORMATS). */
export const EXPORTS = [
  { name: 'datacite-json', label: 'DataCite JSON' },
  { name: 'json-ld', label: 'JSON-LD (schema.org)' },
  { name: 'csl', label: 'CSL' },
  { name: 'bibtex', label: 'BibTeX' },
  { name: 'dublincore', label: 'Dublin Core XML' },
] as const;

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
        {EXPORTS.map((f) => (
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
