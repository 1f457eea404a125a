import {
  FILES_LIST_MAX,
  filesPageLink,
  type FileItemSchema,
  type FilesListSchema,
} from '@cairn/shared';
import type { z } from 'zod';
import { invenioTime } from '../records/records.presenter.js';
import { readJson } from '../../database/schema.js';
import type { BucketContext, FileView, FilesListView } from './files.buckets.js';
import { encodeKey } from './file-keys.js';

function base(siteUrl: string, context: BucketContext): string {
  return `${siteUrl}/api/records/${context.recordId}${context.isDraft ? '/draft' : ''}`;
}

/** A file item as InvenioRDM's files endpoints answer it, multipart links included. */
export function presentFile(
  siteUrl: string,
  context: BucketContext,
  view: FileView,
): z.input<typeof FileItemSchema> {
  const { row, object } = view;
  const self = `${base(siteUrl, context)}/files/${encodeKey(row.key)}`;
  const completed = row.status === 'completed' && object !== undefined;
  const multipartOpen = row.transferType === 'M' && !completed;
  const links: z.input<typeof FileItemSchema>['links'] = { self };
  if (!multipartOpen) links.content = `${self}/content`;
  if (context.isDraft) links.commit = `${self}/commit`;
  if (multipartOpen && view.parts) links.parts = view.parts.map((part) => ({ ...part }));
  const item: z.input<typeof FileItemSchema> = {
    key: row.key,
    created: invenioTime(row.createdAt),
    updated: invenioTime(row.updatedAt),
    status: completed ? 'completed' : row.status === 'committing' ? 'pending' : row.status,
    metadata: row.metadata ? readJson<Record<string, unknown>>(row.metadata) : null,
    access: { hidden: false },
    transfer: {
      type: row.transferType,
      ...(multipartOpen
        ? { parts: row.parts ?? undefined, part_size: row.partSize ?? undefined }
        : {}),
    },
    links,
  };
  if (completed) {
    Object.assign(item, {
      mimetype: row.mimetype,
      size: object.size,
      checksum: object.checksum,
      storage_class: 'L',
      file_id: object.id,
      version_id: row.id,
      bucket_id: context.bucket,
    });
  } else if (row.declaredSize !== null) {
    item.size = row.declaredSize;
  }
  return item;
}

/**
 * The files list (an array here, unlike the record's map): every entry of the bucket up to
 * FILES_LIST_MAX, as InvenioRDM lists them, or the page asked for; `total` and the links to the
 * next and previous pages are Cairn's extension.
 */
export function presentFiles(
  siteUrl: string,
  view: FilesListView,
): z.input<typeof FilesListSchema> {
  const { context, page, total } = view;
  const files = `${base(siteUrl, context)}/files`;
  const size = page?.size ?? FILES_LIST_MAX;
  const number = page?.page ?? 1;
  const pageLink = (n: number) => filesPageLink(files, n, size);
  const links: Record<string, string> = {
    self: page?.page || page?.size ? pageLink(number) : files,
    archive: `${base(siteUrl, context)}/files-archive`,
  };
  if (!view.announced) {
    if (number * size < total) links.next = pageLink(number + 1);
    if (number > 1) links.prev = pageLink(Math.min(number - 1, Math.ceil(total / size) || 1));
  }
  if (!context.filesEnabled) return { enabled: false, links };
  return {
    enabled: true,
    default_preview: context.defaultPreview ?? null,
    order: [],
    entries: view.files.map((f) => presentFile(siteUrl, context, f)),
    total,
    links,
  };
}
