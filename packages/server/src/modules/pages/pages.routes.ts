import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../../config.js';
import { AppError } from '../../errors.js';
import { ensureCsrfCookie } from '../../plugins/auth.js';
import { l10n } from '../records/records.ui.js';
import type { RecordsService } from '../records/records.service.js';
import { presentDraft, presentRecord, type PresentOptions } from '../records/records.presenter.js';
import { type VocabulariesService } from '../vocabularies/vocabularies.service.js';
import type { ExportRecord } from '../records/exports/export-record.js';
import { escapeHtml, recordHead, scriptJson } from './record-head.js';

export interface PagesDeps {
  config: Config;
  records: RecordsService;
  vocabularies: VocabulariesService;
}

/**
 * Serves the built React app: static assets, and for every page route the HTML shell with the
 * page's bootstrap JSON (config, user, vocabularies, the draft or record) injected in its head.
 */
export async function registerPages(app: FastifyInstance, deps: PagesDeps): Promise<void> {
  const { config } = deps;
  const dist = config.webDist;
  const secure = config.siteUrl.startsWith('https://');
  if (!dist || !fs.existsSync(path.join(dist, 'index.html'))) {
    app.log.warn(
      `web app not built (${dist ?? 'no webDist'}): pages are not served; run npm run build`,
    );
    return;
  }
  const shell = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
  await app.register(fastifyStatic, {
    root: path.join(dist, 'assets'),
    prefix: '/assets/',
    immutable: true,
    maxAge: '365d',
    decorateReply: false,
  });

  async function presentOptions(): Promise<PresentOptions> {
    return {
      siteUrl: config.siteUrl,
      ui: true,
      expand: true,
      locale: config.defaultLocale,
      vocab: await deps.vocabularies.snapshot(),
    };
  }

  async function render(
    request: FastifyRequest,
    reply: FastifyReply,
    page: {
      title: string;
      draft?: unknown;
      record?: unknown;
      error?: { status: number; message: string };
      head?: string[];
    },
  ) {
    ensureCsrfCookie(request, reply, secure);
    const user = request.identity.user;
    const resourceTypes = await deps.vocabularies.list('resourcetypes');
    const bootstrap = {
      config: {
        siteUrl: config.siteUrl,
        siteName: config.siteName,
        defaultLocale: config.defaultLocale,
        locales: config.locales,
        createUrl: '/api/records',
        dashboardUploadsRoute: '/me/uploads',
        isDoiRequired: config.doi.required,
        csrfCookieName: 'csrftoken',
        csrfHeaderName: 'X-CSRFToken',
      },
      user: user
        ? { id: String(user.id), email: user.email, name: user.name, isAdmin: user.isAdmin }
        : null,
      vocabularies: {
        resourcetypes: resourceTypes
          .filter((e) => e.tags.includes('depositable') || e.tags.length === 0)
          .map((e) => ({ id: e.id, title: l10n(e.title, config.defaultLocale) }))
          .sort((a, b) => a.title.localeCompare(b.title)),
      },
      draft: page.draft ?? null,
      record: page.record ?? null,
      error: page.error ?? null,
    };
    const head = [
      `<title>${escapeHtml(page.title)} | ${escapeHtml(config.siteName)}</title>`,
      ...(page.head ?? []),
      `<script id="cairn-bootstrap" type="application/json">${scriptJson(bootstrap)}</script>`,
    ].join('\n    ');
    return reply
      .status(page.error?.status ?? 200)
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(shell.replace('<!--cairn-head-->', head));
  }

  function requireLogin(request: FastifyRequest, reply: FastifyReply): boolean {
    if (request.identity.user) return true;
    void reply.redirect(`/login?next=${encodeURIComponent(request.url)}`);
    return false;
  }

  async function guarded(
    request: FastifyRequest,
    reply: FastifyReply,
    title: string,
    load: () => Promise<Record<string, unknown>>,
  ) {
    try {
      return await render(request, reply, { title, ...(await load()) });
    } catch (error) {
      if (error instanceof AppError && error.status < 500) {
        return render(request, reply, {
          title: error.message,
          error: { status: error.status, message: error.message },
        });
      }
      throw error;
    }
  }

  app.get('/', async (request, reply) =>
    reply.redirect(request.identity.user ? '/me/uploads' : '/login'),
  );
  for (const [route, title] of [
    ['/login', 'Log in'],
    ['/signup', 'Sign up'],
  ] as const) {
    app.get(route, async (request, reply) => render(request, reply, { title }));
  }
  app.get('/me/uploads', async (request, reply) =>
    requireLogin(request, reply) ? render(request, reply, { title: 'My uploads' }) : reply,
  );
  app.get('/account/tokens', async (request, reply) =>
    requireLogin(request, reply) ? render(request, reply, { title: 'Access tokens' }) : reply,
  );
  app.get('/uploads/new', async (request, reply) =>
    requireLogin(request, reply) ? render(request, reply, { title: 'New upload' }) : reply,
  );

  app.get('/uploads/:id', async (request, reply) => {
    if (!requireLogin(request, reply)) return reply;
    const { id } = request.params as { id: string };
    return guarded(request, reply, 'Edit upload', async () => {
      const result = await deps.records.readDraft(request.identity.user, id, { feedback: true });
      const draft = presentDraft(result.row, result.parent, {
        ...(await presentOptions()),
        isPublished: result.isPublished,
        isLatestDraft: result.isLatestDraft,
      });
      if (result.errors.length > 0) draft.errors = result.errors;
      return { draft };
    });
  });

  app.get('/records/:id', async (request, reply) => {
    const { id } = request.params as { id: string };
    const preview = (request.query as Record<string, unknown>).preview === '1';
    const result = preview
      ? undefined
      : await deps.records.readRecord(request.identity.user, id).catch(() => undefined);
    if (result && 'redirect' in result) return reply.redirect(`/records/${result.redirect}`);
    return guarded(request, reply, 'Record', async () => {
      const o = await presentOptions();
      if (preview) {
        try {
          const result = await deps.records.readDraft(request.identity.user, id);
          return {
            record: presentDraft(result.row, result.parent, {
              ...o,
              isPublished: result.isPublished,
              isLatestDraft: result.isLatestDraft,
            }),
            title: 'Preview',
            head: ['<meta name="robots" content="noindex">'],
          };
        } catch (error) {
          if (!(error instanceof AppError) || error.status !== 404) throw error;
        }
      }
      const result = await deps.records.readRecord(request.identity.user, id);
      if ('redirect' in result) return {};
      const record = presentRecord(result.row, result.parent, o);
      const head = recordHead(record as unknown as ExportRecord, {
        siteUrl: config.siteUrl,
        siteName: config.siteName,
        vocab: o.vocab,
      });
      return {
        record,
        head,
        title: String((record.metadata as { title?: string }).title ?? 'Record'),
      };
    });
  });
}
