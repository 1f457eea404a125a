import { z } from 'zod';
import { MESSAGES } from '../validation/messages.js';
import { FILES_LIST_MAX, FILES_UPLOAD_BATCH_MAX } from '../limits.js';
import { idParams, objectOrEmpty } from './common.js';
import { positiveInteger } from './search.js';

export const FilesOwnerParams = idParams('Record or draft id, e.g. ha4g3-7x208');

/** A file's key is the rest of the path, slashes included (folders). */
export const FileKeyParams = FilesOwnerParams.extend({
  '*': z.string().describe('File key, then an optional suffix such as /content or /commit'),
});

/** `POST …/draft/files`: the files to create, each in one of InvenioRDM's transfer types. */
export const InitFilesBody = z.array(
  z.object({
    key: z.string().describe('File name; "/" between folders; at most 1024 bytes'),
    size: z.int().min(0).optional(),
    checksum: z.string().describe('md5:<hex>').optional(),
    metadata: z.record(z.string(), z.unknown()).optional(),
    transfer: z
      .object({
        type: z.enum(['L', 'M']),
        parts: z.int().min(1).optional(),
        part_size: z.int().min(1).optional(),
      })
      .optional(),
  }),
);

/** Raw bytes: a file's content, one part of a multipart upload, a logo. */
export const BinaryBody = z.string().meta({ format: 'binary' });

/**
 * `PUT …/files/{key}`: the file's own metadata, which InvenioRDM keeps beside its content; none
 * (or null) clears it.
 */
export const FileMetadataBody = z.preprocess(
  objectOrEmpty,
  z.object({
    metadata: z.record(z.string(), z.unknown(), { error: MESSAGES.notMapping }).nullish(),
  }),
);

/** A presigned URL of one part of a multipart upload. */
export const PartLinkSchema = z.looseObject({
  part: z.number(),
  url: z.string(),
  expiration: z.string().optional(),
});
export type PartLink = z.infer<typeof PartLinkSchema>;

/** One file of a draft or record. */
export const FileItemSchema = z.looseObject({
  key: z.string(),
  size: z.number().optional(),
  checksum: z.string().optional(),
  status: z.string().optional(),
  mimetype: z.string().optional(),
  transfer: z
    .looseObject({
      type: z.string().optional(),
      parts: z.number().optional(),
      part_size: z.number().optional(),
    })
    .optional(),
  links: z
    .looseObject({
      self: z.string().optional(),
      content: z.string().optional(),
      commit: z.string().optional(),
      parts: z.array(PartLinkSchema).optional(),
    })
    .prefault({}),
});
export type FileItem = z.infer<typeof FileItemSchema>;

/**
 * `POST …/draft/files-upload`, a Cairn extension: the first form field (`files`), naming the
 * announced files whose contents follow as `content` parts, in the same order.
 */
export const FilesUploadManifest = z
  .array(
    z.object({
      key: z.string().describe('An announced file of the draft'),
      size: z.int().min(0).describe('Bytes of its content part'),
    }),
  )
  .min(1, { error: 'Name at least one file.' })
  .max(FILES_UPLOAD_BATCH_MAX, { error: `At most ${FILES_UPLOAD_BATCH_MAX} files a request.` });
export type FilesUploadManifest = z.infer<typeof FilesUploadManifest>;

/** The documented form of that body (the schema above is what the `files` field holds). */
export const FilesUploadBody = z.object({
  files: z.string().describe('JSON: [{"key": "raw/a.csv", "size": 1024}, …]'),
  content: z
    .array(z.string().meta({ format: 'binary' }))
    .describe('The bytes of each file named in `files`, in that order'),
});

/** One file of such a batch that was not stored, and why; the others are unaffected. */
export const FileUploadErrorSchema = z.looseObject({
  key: z.string(),
  status: z.number(),
  code: z.string().optional(),
  message: z.string(),
});

/** Its answer: the committed entries, and the files refused with their reasons. */
export const FilesUploadResultSchema = z.looseObject({
  entries: z.array(FileItemSchema),
  errors: z.array(FileUploadErrorSchema),
});
export type FilesUploadResult = z.infer<typeof FilesUploadResultSchema>;

/** The files of a draft or record. */
export const FilesListSchema = z.looseObject({
  enabled: z.boolean().optional(),
  default_preview: z.string().nullable().optional(),
  entries: z.array(FileItemSchema).optional(),
  total: z
    .number()
    .optional()
    .describe(
      `Cairn extension: how many files the bucket holds. A listing without page or size answers at most ${FILES_LIST_MAX} entries; when it holds more, links.next names the next page.`,
    ),
  links: z
    .looseObject({
      self: z.string().optional(),
      next: z.string().optional().describe('Cairn extension: the next page of entries'),
      prev: z.string().optional().describe('Cairn extension: the previous page of entries'),
    })
    .optional(),
});

/**
 * `GET …/files`, a Cairn extension: the entries a page at a time, in the listing's order (by
 * creation, then key). Without either, the first FILES_LIST_MAX entries, as InvenioRDM's
 * unpaginated listing for any bucket up to that size.
 */
export const FilesListQuery = z.looseObject({
  page: positiveInteger().describe('Cairn extension: page number, from 1'),
  size: positiveInteger(FILES_LIST_MAX).describe(
    `Cairn extension: entries per page, at most ${FILES_LIST_MAX} (the default)`,
  ),
});
/**
 * `PUT …/files/{key}/content?commit=true`, a Cairn extension: the content and its commit in one
 * request, answering the committed entry as the commit would. A folder of small files otherwise
 * costs two requests a file, each paying for authentication, the draft's lookup and a
 * transaction of its own. Without it (InvenioRDM's way) the file stays pending until its commit.
 */
export const ContentQuery = z.looseObject({
  commit: z
    .enum(['true', 'false'], { error: 'Must be true or false.' })
    .optional()
    .describe('Cairn extension: `true` commits the file once its content is stored'),
});
export type FilesList = z.infer<typeof FilesListSchema>;

/** `GET …/files/{key}/parts`, a Cairn extension: the parts received so far and those missing. */
export const ReceivedPartsSchema = z.looseObject({
  key: z.string(),
  received: z.array(z.looseObject({ part: z.number(), size: z.number(), checksum: z.string() })),
  missing: z.array(z.number()),
});
export type ReceivedParts = z.infer<typeof ReceivedPartsSchema>;

/** One entry of an archive's listing: a file, or a directory with its own entries. */
export type ContainerEntryJson =
  | { key: string; type: 'file'; size: number; modified?: string }
  | { key: string; type: 'directory'; entries: ContainerEntryJson[] };

const ContainerEntrySchema: z.ZodType<ContainerEntryJson> = z.lazy(() =>
  z.union([
    z.object({
      key: z.string(),
      type: z.literal('file'),
      size: z.number(),
      modified: z.string().optional(),
    }),
    z.object({
      key: z.string(),
      type: z.literal('directory'),
      entries: z.array(ContainerEntrySchema),
    }),
  ]),
);

/**
 * `GET …/files/{key}/container` (InvenioRDM's container listing): what a zip or tar file holds,
 * as a tree; `truncated` when more entries exist than were listed (`total` null when unknown).
 */
export const ContainerListingSchema = z.object({
  key: z.string(),
  format: z.enum(['zip', 'tar', 'tar.gz']),
  entries: z.array(ContainerEntrySchema),
  total: z.number().nullable(),
  truncated: z.boolean(),
});
export type ContainerListing = z.infer<typeof ContainerListingSchema>;

/**
 * Page `page` of a files listing (`/api/records/{id}/files`, `…/draft/files`) of `size` entries:
 * the one form of the link the server writes in `links` and the pages it tells the browser to
 * fetch early, and the web app reads, so that a preloaded page is the page asked for.
 */
export function filesPageLink(filesLink: string, page: number, size = FILES_LIST_MAX): string {
  return `${filesLink}?page=${page}&size=${size}`;
}
