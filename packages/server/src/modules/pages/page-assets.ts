import { filesPageLink } from '@cairn/shared';
import fs from 'node:fs';
import path from 'node:path';
import { escapeHtml } from './record-head.js';

/**
 * The web app's pages by their source module, as its router loads them (web app/routes.tsx).
 * Each is a chunk of its own with the libraries it needs in further chunks.
 */
export const PAGE_MODULES = {
  home: 'src/features/home/HomePage.tsx',
  search: 'src/features/search/SearchPage.tsx',
  login: 'src/features/account/LoginPage.tsx',
  signup: 'src/features/account/SignupPage.tsx',
  tokens: 'src/features/account/TokensPage.tsx',
  communities: 'src/features/communities/CommunitiesPage.tsx',
  community: 'src/features/communities/CommunityPage.tsx',
  newCommunity: 'src/features/communities/NewCommunityPage.tsx',
  uploads: 'src/features/dashboard/UploadsPage.tsx',
  deposit: 'src/features/deposit/DepositPage.tsx',
  record: 'src/features/records/RecordPage.tsx',
  verifyAccessRequest: 'src/features/records/VerifyAccessRequestPage.tsx',
  request: 'src/features/requests/RequestPage.tsx',
  requests: 'src/features/requests/MyRequestsPage.tsx',
  communityRequests: 'src/features/requests/CommunityRequestsPage.tsx',
  communityMembers: 'src/features/communities/MembersPage.tsx',
} as const;
export type PageName = keyof typeof PAGE_MODULES;

/**
 * The English strings of every page but the deposit page, a chunk of their own that those pages
 * wait for before they render (web i18n.ts, `loadLaterStrings`).
 */
export const LATER_STRINGS_MODULE = 'src/i18n/locales/en_US.later.json';
const PAGES_WITHOUT_LATER_STRINGS: ReadonlySet<PageName> = new Set(['deposit']);

/** What Vite's build manifest (dist/.vite/manifest.json) says of one chunk. */
interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  /** Stylesheets of the chunk, which Vite's loader links once the chunk is imported. */
  css?: string[];
}
export type BuildManifest = Record<string, ManifestChunk>;

/** The preload tags of each page's chunks and stylesheets. */
export type PagePreloads = Record<PageName, string[]>;

/**
 * For each page, preload tags for its chunk and every chunk it imports, and for their
 * stylesheets, less those the app's entry loads anyway. Without them the browser learns of a
 * page's code only once the app has started and its router has matched the address, a second
 * round of fetches after the first; and of its stylesheets once Vite's loader imports the page,
 * which waits for them (a round trip more on the deposit form, measured at 150 ms latency).
 * Throws when a page is missing from the manifest: this table and the web app's routes disagree.
 */
export function pagePreloads(manifest: BuildManifest): PagePreloads {
  const entry = Object.keys(manifest).filter((key) => manifest[key]?.isEntry);
  const loadedByEntry = new Set(entry.flatMap((key) => importClosure(manifest, key)));
  const preloads = {} as PagePreloads;
  for (const [page, source] of Object.entries(PAGE_MODULES) as Array<[PageName, string]>) {
    for (const module of [source, LATER_STRINGS_MODULE]) {
      if (!manifest[module]) {
        throw new Error(`The web build has no chunk for ${module} (page "${page}"): rebuild it`);
      }
    }
    const strings = PAGES_WITHOUT_LATER_STRINGS.has(page)
      ? []
      : importClosure(manifest, LATER_STRINGS_MODULE);
    const chunks = [...new Set([...importClosure(manifest, source), ...strings])]
      .filter((key) => !loadedByEntry.has(key))
      .map((key) => manifest[key]!);
    const stylesheets = new Set(chunks.flatMap((chunk) => chunk.css ?? []));
    preloads[page] = [
      ...chunks.map((chunk) => modulePreload(chunk.file)),
      ...[...stylesheets].map(stylePreload),
    ];
  }
  return preloads;
}

/** Reads the web build's manifest and computes the pages' preloads; none without a manifest. */
export function readPagePreloads(dist: string): PagePreloads | null {
  const file = path.join(dist, '.vite', 'manifest.json');
  if (!fs.existsSync(file)) return null;
  return pagePreloads(JSON.parse(fs.readFileSync(file, 'utf8')) as BuildManifest);
}

/** `key` and every chunk it imports statically, directly or not, each once, `key` first. */
function importClosure(manifest: BuildManifest, key: string): string[] {
  const seen = new Set<string>();
  const visit = (current: string) => {
    if (seen.has(current)) return;
    seen.add(current);
    for (const imported of manifest[current]?.imports ?? []) visit(imported);
  };
  visit(key);
  return [...seen];
}

function modulePreload(file: string): string {
  return `<link rel="modulepreload" crossorigin href="/${escapeHtml(file)}">`;
}

/**
 * A fetch, not a stylesheet: the page's styles apply when Vite's loader links them, as it would
 * without this tag, and its link (CORS mode anonymous, like this one) takes the preloaded file.
 */
function stylePreload(file: string): string {
  return `<link rel="preload" as="style" crossorigin href="/${escapeHtml(file)}">`;
}

/**
 * A preload tag for the first page of a files listing the page's app reads at once, its record
 * or draft holding too many files for its JSON (`entries_omitted`): the browser fetches it while
 * it loads and runs the app's scripts, and the app, knowing the count from it as soon as it
 * starts, asks for the other pages a few at a time. On a 10,000-file landing page here, the
 * page's last long task ended at about 1.6 s instead of 2.0 s. Preloading more pages did worse
 * (about 2.0 s for 3 or 10): they hold the browser's six connections and the server's event loop
 * while the scripts wait. The link is the app's own (`filesPageLink`), fetched as it fetches it
 * (CORS mode, same-origin credentials), so that the preloaded answer is the one it takes.
 */
export function listingPreload(filesLink: string): string {
  return `<link rel="preload" as="fetch" crossorigin href="${escapeHtml(filesPageLink(filesLink, 1))}">`;
}

/**
 * The shell with the stylesheets and preloads Vite put after the head marker moved before it.
 * The page's data goes where the marker is, and may be megabytes (a record with 2,000
 * creators): tags after it are seen only once the browser has read that far. The entry script
 * stays after the data, which it reads as soon as it runs.
 */
export function assetsBeforeData(shell: string, marker: string): string {
  const start = shell.indexOf(marker);
  const headEnd = shell.indexOf('</head>');
  if (start < 0 || headEnd < start) throw new Error(`index.html has no ${marker} in its head`);
  const after = shell.slice(start + marker.length, headEnd);
  const links = after.match(/<link\b[^>]*>\s*/g) ?? [];
  return (
    shell.slice(0, start) +
    links.join('') +
    marker +
    after.replace(/<link\b[^>]*>\s*/g, '') +
    shell.slice(headEnd)
  );
}
