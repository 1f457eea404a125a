import { FilesListSchema, filesPageLink, type FileItem } from '@cairn/shared';
import { matchPath } from 'react-router';
import type { ApiClient } from '../../api/client';
import type { Bootstrap } from '../../bootstrap';
import { canReadFiles, landingView } from './landing';

/**
 * Pages asked for at once after the first. One at a time, the browser waited for each page's
 * answer and the server for the browser to read the one before: a listing of 10,000 files took
 * a second, most of it idle on both sides.
 */
const PAGES_AT_ONCE = 3;

/**
 * Every entry of a files listing, a page of FILES_LIST_MAX at a time (`links.next`, Cairn's
 * extension): a draft or record of more than FILES_EMBEDDED_MAX files leaves them out of its
 * own JSON, and both file trees (the uploader's and the landing page's) need all of them. The
 * first page tells how many there are and the page size the server keeps to; the others are
 * then asked for a few at a time, in the form of the server's own link to the next page.
 */
export async function listAllFiles(api: ApiClient, filesLink: string): Promise<FileItem[]> {
  const first = await readPage(api, filesPageLink(filesLink, 1));
  const pages: FileItem[][] = [first.entries ?? []];
  let next = first.links?.next;
  const numbered = next ? numberedPages(next, first.total) : undefined;
  if (numbered) {
    const { firstNumber, lastNumber, urlOf } = numbered;
    let asked = firstNumber;
    const read = async () => {
      while (asked <= lastNumber) {
        const number = asked++;
        const page = await readPage(api, urlOf(number));
        pages[number - firstNumber + 1] = page.entries ?? [];
        // Files added while the listing was read: the last page links to more.
        if (number === lastNumber) next = page.links?.next;
      }
    };
    await Promise.all(Array.from({ length: PAGES_AT_ONCE }, read));
  }
  while (next) {
    const page = await readPage(api, next);
    pages.push(page.entries ?? []);
    next = page.links?.next;
  }
  // Pages are offsets into the listing: a file added or deleted meanwhile can shift an entry
  // onto two pages. It is listed once.
  const byKey = new Map<string, FileItem>();
  for (const entry of pages.flat()) if (!byKey.has(entry.key)) byKey.set(entry.key, entry);
  return [...byKey.values()];
}

async function readPage(api: ApiClient, url: string) {
  return FilesListSchema.parse(await api.get(url));
}

/**
 * The pages after the first as numbered links, from the first page's link to the next one and
 * the total; undefined when the server's link has no page number and size to go by.
 */
function numberedPages(next: string, total: number | undefined) {
  const url = new URL(next, window.location.href);
  const firstNumber = Number(url.searchParams.get('page'));
  const size = Number(url.searchParams.get('size'));
  if (total === undefined || !Number.isSafeInteger(firstNumber) || firstNumber < 2 || !(size > 0))
    return undefined;
  const relative = !/^[a-z][a-z\d+.-]*:/i.test(next);
  return {
    firstNumber,
    lastNumber: Math.max(firstNumber, Math.ceil(total / size)),
    urlOf: (number: number) => {
      url.searchParams.set('page', String(number));
      return relative ? `${url.pathname}${url.search}` : url.toString();
    },
  };
}

/** Listings started as the page's scripts start, by path: each read once (see readFilesListing). */
const early = new Map<string, Promise<FileItem[]>>();

/**
 * Starts reading the files listing the page the server rendered will need, before the page's
 * code has loaded and mounted: the deposit page's draft or the landing page's record when it
 * holds too many files for its JSON, and the reader may see them. Read once the tree mounts,
 * a listing of 10,000 files kept the page from showing its files for most of a second more.
 */
export function startEarlyListing(
  api: ApiClient,
  bootstrap: Bootstrap,
  location: { pathname: string },
): void {
  const link = earlyListingLink(bootstrap, location);
  if (!link) return;
  const listing = listAllFiles(api, link);
  // Whoever takes it handles its failure; a page that never does must not report it as unhandled.
  listing.catch(() => undefined);
  early.set(pathOf(link), listing);
}

function earlyListingLink(bootstrap: Bootstrap, location: { pathname: string }) {
  if (matchPath('/uploads/:id', location.pathname)) return bootstrap.filesListing ?? undefined;
  const landing = matchPath('/records/:id', location.pathname);
  const { record } = bootstrap;
  if (!landing || !record || record.id !== landing.params.id) return undefined;
  if (!(record.files as { entries_omitted?: boolean } | undefined)?.entries_omitted)
    return undefined;
  const view = landingView(record);
  if (!canReadFiles(view, bootstrap.user, bootstrap.link, bootstrap.grant)) return undefined;
  return filesListingLink(view);
}

/** Where the API lists a record's (or a previewed draft's) files; each file's links go under it. */
export function filesListingLink(record: { id: string; isDraft: boolean }): string {
  return `/api/records/${encodeURIComponent(record.id)}/${record.isDraft ? 'draft/files' : 'files'}`;
}

/** Every entry of the listing at `filesLink`: the one started early for it, once, else read now. */
export function readFilesListing(api: ApiClient, filesLink: string): Promise<FileItem[]> {
  const path = pathOf(filesLink);
  const started = early.get(path);
  if (!started) return listAllFiles(api, filesLink);
  // A later visit to the page in this tab reads the files as they are then.
  early.delete(path);
  return started;
}

function pathOf(link: string): string {
  return new URL(link, window.location.href).pathname;
}
