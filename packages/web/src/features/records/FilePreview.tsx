import { Code, Table, Text, Typography } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { serverMessageOf } from '../../api/client';
import { ErrorNotice } from '../../components/ErrorNotice';
import { renderMarkdown } from '../../lib/markdown';
import { PageLoader } from '../../components/PageLoader';
import { useFilePrefix } from './api';
import { ArchivePreview } from './ArchivePreview';
import type { FileEntry } from '../shared/landing';

/** Bytes read for a text, CSV or Markdown preview: enough for a screenful, never the whole file. */
const PREFIX_BYTES = 64 * 1024;
const TABLE_ROWS = 20;

export type PreviewKind = 'image' | 'pdf' | 'csv' | 'tsv' | 'markdown' | 'text' | 'archive';

/** Which preview a file gets, from its media type, else its extension; none for the rest. */
export function previewKind(file: FileEntry): PreviewKind | undefined {
  const type = (file.mimetype ?? '').toLowerCase();
  const ext = file.key.toLowerCase().split('.').pop() ?? '';
  if (['image/png', 'image/jpeg', 'image/gif', 'image/webp'].includes(type)) return 'image';
  if (type === 'application/pdf' || ext === 'pdf') return 'pdf';
  if (type === 'text/csv' || ext === 'csv') return 'csv';
  if (type === 'text/tab-separated-values' || ext === 'tsv') return 'tsv';
  if (type === 'text/markdown' || ext === 'md' || ext === 'markdown') return 'markdown';
  if (type.startsWith('text/') || ['txt', 'json', 'xml', 'log'].includes(ext)) return 'text';
  // Listed by the server from the archive's index or headers, never downloaded whole.
  if (
    ['application/zip', 'application/x-tar', 'application/gzip'].includes(type) ||
    ['zip', 'tar', 'tgz', 'gz'].includes(ext)
  )
    return containerKind(file.key);
  return undefined;
}

/** An archive the server can list (a gzip that is not a tar is not one). */
function containerKind(key: string): PreviewKind | undefined {
  return /\.(zip|tar|tar\.gz|tgz)$/i.test(key) ? 'archive' : undefined;
}

/** Rows of a delimited text: quoted fields may hold the delimiter, quotes and line breaks. */
export function parseDelimited(text: string, delimiter: string, maxRows: number): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length && rows.length < maxRows; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === delimiter) {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  // The last line is whole only when the whole file was read; a cut one is left out.
  if (rows.length < maxRows && (field !== '' || row.length > 0) && text.length < PREFIX_BYTES) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

/**
 * The file previewed when the page opens: the one the record names, else the first that has a
 * preview. Never an empty file: there is nothing in it to show, and a ranged read of it is
 * refused (416), which would greet every reader with an error.
 */
export function firstPreview(
  entries: FileEntry[],
  defaultPreview: string | undefined,
): FileEntry | undefined {
  const worthShowing = (f: FileEntry) => f.size !== 0 && previewKind(f) !== undefined;
  const named = entries.find((f) => f.key === defaultPreview);
  return named && worthShowing(named) ? named : entries.find(worthShowing);
}

/** A preview of one file the reader may read; `url` is its content link. */
export function FilePreview({
  file,
  url,
  kind,
}: {
  file: FileEntry;
  url: string;
  kind: PreviewKind;
}) {
  const { t } = useTranslation();
  // Nothing to fetch: a range of an empty file is refused, and there is nothing to show anyway.
  if (file.size === 0)
    return (
      <Text size="sm" c="dimmed">
        {t('records.previewEmpty')}
      </Text>
    );
  if (kind === 'image')
    return (
      <img
        src={url}
        alt={t('records.previewOf', { name: file.key })}
        style={{ maxWidth: '100%', maxHeight: '32rem' }}
      />
    );
  if (kind === 'pdf')
    return (
      <iframe
        src={url}
        title={t('records.previewOf', { name: file.key })}
        style={{ width: '100%', height: '36rem', border: 0 }}
      />
    );
  if (kind === 'archive') return <ArchivePreview file={file} url={url} />;
  return <TextPreview file={file} url={url} kind={kind} />;
}

function TextPreview({ file, url, kind }: { file: FileEntry; url: string; kind: PreviewKind }) {
  const { t } = useTranslation();
  const prefix = useFilePrefix(url, PREFIX_BYTES);
  if (prefix.isPending) return <PageLoader label={t('app.loading')} />;
  if (prefix.isError)
    return (
      <ErrorNotice title={t('records.previewFailed')} message={serverMessageOf(prefix.error)} />
    );
  const truncated = (file.size ?? 0) > PREFIX_BYTES;
  if (kind === 'csv' || kind === 'tsv') {
    const [header, ...rows] = parseDelimited(
      prefix.data,
      kind === 'csv' ? ',' : '\t',
      TABLE_ROWS + 1,
    );
    return (
      <Table.ScrollContainer minWidth={400}>
        <Table striped withTableBorder>
          <Table.Caption>
            {t('records.tablePreviewCaption', { count: rows.length, name: file.key })}
          </Table.Caption>
          <Table.Thead>
            <Table.Tr>
              {(header ?? []).map((cell, i) => (
                <Table.Th key={i}>{cell}</Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row, r) => (
              <Table.Tr key={r}>
                {row.map((cell, i) => (
                  <Table.Td key={i}>{cell}</Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    );
  }
  if (kind === 'markdown')
    return (
      <>
        <Typography
          style={{ maxHeight: '32rem', overflow: 'auto' }}
          tabIndex={0}
          role="region"
          aria-label={t('records.previewOf', { name: file.key })}
        >
          {renderMarkdown(prefix.data)}
        </Typography>
        {truncated && (
          <Text size="sm" c="dimmed">
            {t('records.previewTruncated')}
          </Text>
        )}
      </>
    );
  return (
    <>
      <Code
        block
        style={{ maxHeight: '32rem', overflow: 'auto', whiteSpace: 'pre-wrap' }}
        tabIndex={0}
      >
        {prefix.data}
      </Code>
      {truncated && (
        <Text size="sm" c="dimmed">
          {t('records.previewTruncated')}
        </Text>
      )}
    </>
  );
}
