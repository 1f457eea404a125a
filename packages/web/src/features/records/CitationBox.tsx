import { Button, Code, CopyButton, Group, NativeSelect, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageLoader } from '../../components/PageLoader';
import { useExport } from './api';
import type { CitationStyle } from './citation/format-citation';

const STYLES = ['apa', 'harvard', 'chicago', 'ieee', 'bibtex'] as const;
type Style = (typeof STYLES)[number];

const CSL_JSON = 'application/vnd.citationstyles.csl+json';
const BIBTEX = 'application/x-bibtex';

/**
 * "Cite as", in the style the reader picks. The styles are citeproc's rendering (through
 * @citation-js, loaded only when this box is shown) of the CSL-JSON the server exports; BibTeX is
 * the server's own export, so the page and the download never disagree.
 */
export function CitationBox({ id }: { id: string }) {
  const { t } = useTranslation();
  const [style, setStyle] = useState<Style>('apa');
  const isBibtex = style === 'bibtex';
  const csl = useExport(id, CSL_JSON, !isBibtex);
  const bibtex = useExport(id, BIBTEX, isBibtex);
  const formatted = useQuery({
    queryKey: ['records', id, 'citation', style, csl.data] as const,
    queryFn: async () => {
      const { formatCitation } = await import('./citation/format-citation');
      return formatCitation(JSON.parse(csl.data!) as unknown, style as CitationStyle);
    },
    enabled: !isBibtex && csl.data !== undefined,
    staleTime: Infinity,
  });
  const text = isBibtex ? bibtex.data : formatted.data;
  const failed = isBibtex ? bibtex.isError : csl.isError || formatted.isError;

  return (
    <Stack component="section" aria-labelledby="record-citation" gap="xs">
      <Title order={2} size="h4" id="record-citation">
        {t('records.citation')}
      </Title>
      <NativeSelect
        label={t('records.citationStyle')}
        value={style}
        onChange={(event) => setStyle(event.currentTarget.value as Style)}
        data={STYLES.map((s) => ({ value: s, label: t(`records.citationStyles.${s}`) }))}
      />
      <div aria-live="polite">
        {failed ? (
          <Text size="sm">{t('records.citationFailed')}</Text>
        ) : text === undefined ? (
          <PageLoader label={t('app.loading')} />
        ) : isBibtex ? (
          <Code block>{text}</Code>
        ) : (
          <Text size="sm" data-testid="citation-text">
            {text}
          </Text>
        )}
      </div>
      {text !== undefined && (
        <Group>
          <CopyButton value={text}>
            {({ copied, copy }) => (
              <Button variant="light" size="compact-sm" onClick={copy}>
                {copied ? t('records.copied') : t('records.copyCitation')}
              </Button>
            )}
          </CopyButton>
        </Group>
      )}
    </Stack>
  );
}
