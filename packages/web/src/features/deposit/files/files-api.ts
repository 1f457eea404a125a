import { z } from 'zod';
import { ApiError, type ApiClient } from '../../../api/client';

/*
 * The files API's bodies as the uploader reads them (InvenioRDM's single and multipart transfers,
 * and Cairn's parts listing). Loose objects: unknown keys are kept.
 */

export const PartLinkSchema = z.looseObject({
  part: z.number(),
  url: z.string(),
  expiration: z.string().optional(),
});
export type PartLink = z.infer<typeof PartLinkSchema>;

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

export const FilesListSchema = z.looseObject({
  enabled: z.boolean().optional(),
  default_preview: z.string().nullable().optional(),
  entries: z.array(FileItemSchema).optional(),
});
export type FilesList = z.infer<typeof FilesListSchema>;

/** `GET {file self}/parts`, Cairn's extension: the parts received so far and those missing. */
export const ReceivedPartsSchema = z.looseObject({
  key: z.string(),
  received: z.array(z.looseObject({ part: z.number(), size: z.number(), checksum: z.string() })),
  missing: z.array(z.number()),
});
export type ReceivedParts = z.infer<typeof ReceivedPartsSchema>;

/** Deletes a draft file; a file or draft already gone (404) counts as deleted. */
export async function deleteFile(api: ApiClient, self: string): Promise<void> {
  try {
    await api.request(self, { method: 'DELETE' });
  } catch (error) {
    const gone =
      error instanceof ApiError &&
      (error.code === 'NOT_FOUND' || error.code === 'PID_DOES_NOT_EXIST');
    if (!gone) throw error;
  }
}
