import { invenioTime } from '../records/records.presenter.js';
import { readJson } from '../../database/schema.js';
import type { BucketContext, FileView, FilesListView } from './files.service.js';
import { encodeKey } from './files.service.js';

function base(siteUrl: string, context: BucketContext): string {
  return `${siteUrl}/api/records/${context.recordId}${context.isDraft ? '/draft' : ''}`;
}

/** A file item as InvenioRDM's files endpoints answer it, multipart links included. */
export function presentFile(
  siteUrl: string,
  context: BucketContext,
  view: FileView,
): Record<string, unknown> {
  const { row, object } = view;
  const self = `${base(siteUrl, context)}/files/${encodeKey(row.key)}`;
  const completed = row.status === 'completed' && object !== undefined;
  const multipartOpen = row.transferType === 'M' && !completed;
  const links: Record<string, unknown> = { self };
  if (!multipartOpen) links.content = `${self}/content`;
  if (context.isDraft) links.commit = `${self}/commit`;
  if (multipartOpen && view.parts) links.parts = view.parts;
  const item: Record<string, unknown> = {
    key: row.key,
    created: invenioTime(row.createdAt),
    updated: invenioTime(row.updatedAt),
    status: completed ? 'completed' : row.status === 'committing' ? 'pending' : row.status,
    metadata: row.metadata ? readJson<Record<string, unknown>>(row.metadata) : null,
    access: { hidden: false },
    transfer: {
      type: row.transferType,
      ...(multipartOpen ? { parts: row.parts, part_size: row.partSize } : {}),
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

/** The files list: all entries of the bucket (an array here, unlike the record's map). */
export function presentFiles(siteUrl: string, view: FilesListView): Record<string, unknown> {
  const { context } = view;
  const links = {
    self: `${base(siteUrl, context)}/files`,
    archive: `${base(siteUrl, context)}/files-archive`,
  };
  if (!context.filesEnabled) return { enabled: false, links };
  return {
    enabled: true,
    default_preview: context.defaultPreview ?? null,
    order: [],
    entries: view.files.map((f) => presentFile(siteUrl, context, f)),
    links,
  };
}
