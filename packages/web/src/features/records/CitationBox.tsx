import { Button, Code, CopyButton, Group, NativeSelect, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageLoader } from '../../components/PageLoader';
import { useExport } from './api';

const STYLES = ['apa', 'harvard', 'chicago', 'ieee', 'vancouver', 'bibtex'] as const;
type Style = (typeof STYLES)[number];

/** Each style as the API's `style` names it (InvenioRDM's CSL style ids). */
const API_STYLES: Record<Exclude<Style, 'bibtex'>, string> = {
  apa: 'apa',
  harvard: 'harvard1',
  chicago: 'chicago-author-date',
  ieee: 'ieee',
  vancouver: 'vancouver',
};

const BIBTEX = 'application/x-bibtex';
const BIBLIOGRAPHY = 'text/x-bibliography';

/**
 * "Cite as", in the style the reader picks. The server formats each style (`text/x-bibliography`,
 * in the page's language where the style has its terms), as InvenioRDM's API does: the citation
 * processor stays off the page, which would otherwise load and run half a megabyte of script for
 * it. BibTeX is the server's own export, so the page and the download never disagree.
 */
export function CitationBox({ id }: { id: string }) {
  const { t, i18n } = useTranslation();
  const [style, setStyle] = useState<Style>('apa');
  const isBibtex = style === 'bibtex';
  const query = isBibtex
    ? ''
    : `?${new URLSearchParams({ style: API_STYLES[style], locale: i18n.language })}`;
  const { data: text, isError: failed } = useExport(id, isBibtex ? BIBTEX : BIBLIOGRAPHY, query);

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
