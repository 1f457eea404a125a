import { FILES_LIST_MAX, FilesListSchema, type FileItem } from '@cairn/shared';
import { ApiError, type ApiClient } from '../../../api/client';

/*
 * The files API's bodies as the uploader reads them (InvenioRDM's single and multipart transfers,
 * and Cairn's parts listing): the API's own schemas.
 */

export {
  FileItemSchema,
  FilesListSchema,
  PartLinkSchema,
  ReceivedPartsSchema,
  type FileItem,
  type FilesList,
  type PartLink,
  type ReceivedParts,
} from '@cairn/shared';

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

/**
 * Every entry of a files listing, a page of FILES_LIST_MAX at a time (`links.next`, Cairn's
 * extension): a draft of more than FILES_EMBEDDED_MAX files leaves them out of its own JSON.
 */
export async function listAllFiles(api: ApiClient, filesLink: string): Promise<FileItem[]> {
  const items: FileItem[] = [];
  let url: string | undefined = `${filesLink}?size=${FILES_LIST_MAX}`;
  while (url) {
    const page = FilesListSchema.parse(await api.get(url));
    items.push(...(page.entries ?? []));
    url = page.links?.next;
  }
  return items;
}
