import { FILES_LIST_MAX, FilesListSchema, type FileItem } from '@cairn/shared';
import type { ApiClient } from '../../api/client';

/**
 * Every entry of a files listing, a page of FILES_LIST_MAX at a time (`links.next`, Cairn's
 * extension): a draft or record of more than FILES_EMBEDDED_MAX files leaves them out of its
 * own JSON, and both file trees (the uploader's and the landing page's) need all of them.
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
