import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../../config.js';
import { AppError } from '../../errors.js';
import { routesPlugin } from '../../lib/http.js';
import {
  SITEMAP_SECTIONS,
  type SitemapCursor,
  type SitemapSection,
  type SitemapsService,
} from './sitemaps.service.js';

export interface SitemapDeps {
  config: Config;
  sitemaps: SitemapsService;
}

const NAMESPACE = 'http://www.sitemaps.org/schemas/sitemap/0.9';
const XML_TYPE = 'application/xml; charset=utf-8';

/** The sitemaps protocol's entity escaping of a URL. */
function xmlText(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c] ?? c,
  );
}

/** A cursor in a sitemap's address: opaque, so that its form may change. */
function encodeCursor(cursor: SitemapCursor): string {
  return Buffer.from(JSON.stringify([cursor.key, cursor.id])).toString('base64url');
}

function decodeCursor(text: string): SitemapCursor {
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && value.every((v) => typeof v === 'string')) {
      return { key: value[0] as string, id: value[1] as string };
    }
  } catch {
    // Not a cursor this server wrote: answered below as an address that does not exist.
  }
  throw new AppError('NOT_FOUND');
}

/** Paths kept from crawlers: the API, forms, personal pages, and the endless search pages. */
const DISALLOWED = ['/api/', '/uploads/', '/me/', '/account/', '/login', '/signup', '/search'];
/**
 * What pages crawlers may index still fetch from the API: a community's page reads the
 * community and its records there, and landing pages link the files (`citation_pdf_url`,
 * signposting's `item`). The longest matching rule wins (RFC 9309), so these beat `/api/`.
 */
const ALLOWED = ['/api/communities/', '/api/records/*/files/'];

/**
 * `robots.txt`, the sitemap index and its sitemaps (sitemaps.org protocol): the landing page of
 * every public record version and the page of every public community.
 */
export const sitemapRoutes = routesPlugin<SitemapDeps>((app: FastifyInstance, deps) => {
  const site = deps.config.siteUrl.replace(/\/+$/, '');

  const sitemapUrl = (section: SitemapSection, after?: SitemapCursor) =>
    `${site}/sitemap-${section}.xml${after ? `?after=${encodeCursor(after)}` : ''}`;
  const pageUrl = (section: SitemapSection, name: string) =>
    `${site}/${section}/${encodeURIComponent(name)}`;

  app.get('/robots.txt', { schema: { hide: true } }, (_request, reply) =>
    reply
      .type('text/plain; charset=utf-8')
      .send(
        [
          'User-agent: *',
          ...ALLOWED.map((path) => `Allow: ${path}`),
          ...DISALLOWED.map((path) => `Disallow: ${path}`),
          '',
          `Sitemap: ${site}/sitemap.xml`,
          '',
        ].join('\n'),
      ),
  );

  app.get('/sitemap.xml', { schema: { hide: true } }, async (_request, reply) => {
    const sitemaps = (await deps.sitemaps.sitemaps()).map(
      (sitemap) =>
        `<sitemap><loc>${xmlText(sitemapUrl(sitemap.section, sitemap.after))}</loc>${
          sitemap.lastmod ? `<lastmod>${xmlText(sitemap.lastmod)}</lastmod>` : ''
        }</sitemap>`,
    );
    return reply
      .type(XML_TYPE)
      .send(
        `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="${NAMESPACE}">\n${sitemaps.join('\n')}\n</sitemapindex>\n`,
      );
  });

  const query = { schema: { hide: true, querystring: z.object({ after: z.string().optional() }) } };
  for (const section of SITEMAP_SECTIONS) {
    app
      .withTypeProvider<ZodTypeProvider>()
      .get(`/sitemap-${section}.xml`, query, async (request, reply) => {
        const after = request.query.after ? decodeCursor(request.query.after) : undefined;
        const entries = deps.sitemaps.entries(section, after);
        // The first rows are read before the answer starts, so that a failing database is
        // answered 500 rather than with half a sitemap.
        let next = await entries.next();
        async function* xml() {
          yield `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="${NAMESPACE}">\n`;
          while (!next.done) {
            yield next.value
              .map(
                (e) =>
                  `<url><loc>${xmlText(pageUrl(section, e.name))}</loc><lastmod>${xmlText(e.lastmod)}</lastmod></url>\n`,
              )
              .join('');
            next = await entries.next();
          }
          yield '</urlset>\n';
        }
        return reply.type(XML_TYPE).send(Readable.from(xml()));
      });
  }
});
