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

export { readFilesListing } from '../../shared/files-listing';
