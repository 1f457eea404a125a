import {
  SITEMAP_SECTIONS,
  type SitemapCursor,
  type SitemapEntry,
  type SitemapSection,
  type SitemapsRepository,
} from './sitemaps.repository.js';

export { SITEMAP_SECTIONS, type SitemapCursor, type SitemapEntry, type SitemapSection };

/** One sitemap the index lists. */
export interface ListedSitemap {
  section: SitemapSection;
  /** Where it starts; none: at the beginning of its section. */
  after?: SitemapCursor;
  /** The newest change of what it lists. */
  lastmod?: string;
}

/** The sitemaps crawlers read, `urlsPerSitemap` URLs each. */
export class SitemapsService {
  constructor(
    private readonly repo: SitemapsRepository,
    private readonly urlsPerSitemap: number,
  ) {}

  /** Every section's sitemaps; the records' first even while empty, since an index needs one. */
  async sitemaps(): Promise<ListedSitemap[]> {
    const listed: ListedSitemap[] = [];
    for (const section of SITEMAP_SECTIONS) {
      const pages = await this.repo.pages(section, this.urlsPerSitemap);
      if (section === 'records' && pages.length === 0) pages.push({});
      listed.push(...pages.map((page) => ({ section, ...page })));
    }
    return listed;
  }

  /** The entries of one sitemap, a chunk at a time. */
  entries(
    section: SitemapSection,
    after: SitemapCursor | undefined,
  ): AsyncIterator<SitemapEntry[]> {
    return this.repo.entries(section, after, this.urlsPerSitemap)[Symbol.asyncIterator]();
  }
}
