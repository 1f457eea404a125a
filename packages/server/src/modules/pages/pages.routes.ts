import {
  RecordIdParams,
  type PublicConfigInput,
  type GrantPermission,
  type RecordData,
  type SecretLinkPermission,
  type Tombstone,
} from '@cairn/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import fs from 'node:fs';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import type { Config } from '../../config.js';
import { AppError } from '../../errors.js';
import { queryOf } from '../../lib/http.js';
import { ensureCsrfCookie } from '../../plugins/auth.js';
import { readSummary } from '../files/files.summary.js';
import { l10n } from '../records/records.ui.js';
import type { RecordsRouteDeps } from '../records/records.routes.js';
import type { RecordAccessService } from '../records/records-access.service.js';
import type { RecordDraftsService } from '../records/records-drafts.service.js';
import { communitiesNamedBy, type ParentRow } from '../records/records.rows.js';
import { linkAllows } from '../records/records.shared.js';
import type { User } from '../users/users.service.js';
import {
  presentDraft,
  presentRecord,
  withIndexedLookup,
  type PresentOptions,
} from '../records/records.presenter.js';
import { type VocabulariesService } from '../vocabularies/vocabularies.service.js';
import type { ExportRecord } from '../records/exports/export-record.js';
import { signpostingHeader } from '../records/signposting.js';
import {
  assetsBeforeData,
  listingPreload,
  readPagePreloads,
  type PageName,
} from './page-assets.js';
import { escapeHtml, recordHead, scriptJson } from './record-head.js';

/** Where the page's head tags and data go in the web app's index.html. */
const HEAD_MARKER = '<!--cairn-head-->';

/** The element at the end of the deposit page's body that holds its draft (web bootstrap.ts). */
export const STREAMED_DRAFT_ELEMENT_ID = 'cairn-draft';

export interface PagesDeps {
  config: Config;
  drafts: RecordDraftsService;
  access: RecordAccessService;
  vocabularies: VocabulariesService;
  /**
   * The review receiver and default community as expanded stubs (communities module), as
   * `GET /api/records/{id}/draft?expand=1` gives them: the editor reads its community there.
   */
  expandParent: RecordsRouteDeps['expandParent'];
  /** The person's role in each of these communities that it belongs to (communities module). */
  memberships: (user: User, communityIds: string[]) => Promise<Record<string, string>>;
  /** The files and bytes a record of this owner may hold: their own quota, else the configured one. */
  quota: (ownerId: number) => Promise<{ maxFiles: number; maxBytes: number }>;
  /** Open requests waiting for the person's decision (requests module): the header's count. */
  awaitingRequests: (user: User) => Promise<number>;
  /**
   * Throws the API's error (404, 403) unless the person may do `what` in the community `slug`:
   * curate (who may open its requests page) or read its members (its members page).
   */
  allowedInCommunity: (
    user: User | undefined,
    slug: string,
    what: 'can_curate' | 'can_read_members',
  ) => Promise<void>;
}

/**
 * A deposit page's draft holding too many files for its JSON: the listing the app reads them
 * from, which it starts reading at once, and the browser even before.
 */
function listingOf(filesListing: string, summary: { entries?: unknown }) {
  return summary.entries ? {} : { filesListing, head: [listingPreload(filesListing)] };
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
  const shell = assetsBeforeData(
    fs.readFileSync(path.join(dist, 'index.html'), 'utf8'),
    HEAD_MARKER,
  );
  const preloads = readPagePreloads(dist);
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

  interface Page {
    title: string;
    /** The web app's page, whose code the browser is told to fetch at once. */
    page?: PageName;
    draft?: unknown;
    record?: unknown;
    permissions?: unknown;
    /** Whose record the deposit page edits (an administrator may edit someone else's). */
    ownerId?: number;
    /** The communities the deposit page's draft names: its header shows the person's role. */
    communityIds?: string[];
    /**
     * The files listing of a deposit page's draft too large for its JSON to carry its entries:
     * the app starts reading it while its scripts load, before the draft itself arrives.
     */
    filesListing?: string;
    error?: { status: number; message: string; tombstone?: Tombstone };
    /** The secret link the page was opened with, when it opens the page's record. */
    link?: { permission: SecretLinkPermission };
    /** The signed-in person's grant on the page's record, if they hold one. */
    grant?: { permission: GrantPermission };
    head?: string[];
  }

  /** The shell with the page's head filled in: its title, extra tags and bootstrap JSON. */
  async function pageHtml(request: FastifyRequest, reply: FastifyReply, page: Page) {
    ensureCsrfCookie(request, reply, secure);
    const user = request.identity.user;
    const configuredQuota = {
      maxFiles: config.files.maxFilesPerRecord,
      maxBytes: config.files.maxBytesPerRecord,
    };
    const [resourceTypes, memberships, quota, awaitingRequests] = await Promise.all([
      deps.vocabularies.list('resourcetypes'),
      // The community header shows the person's role in the draft's community as a badge. Only
      // the draft's: the picker reads each community's role from the API as it pages, so that a
      // member of 10,000 communities is not sent all of them with every deposit page.
      page.page === 'deposit' && user && page.communityIds?.length
        ? deps.memberships(user, page.communityIds)
        : {},
      // The uploader warns before it sends what the server would refuse, so it needs the quota
      // the server applies: the record owner's, which `cairn users quota` may have set apart.
      page.page === 'deposit' && user ? deps.quota(page.ownerId ?? user.id) : configuredQuota,
      // The header's count, so that its first render needs no request (it polls afterwards).
      user ? deps.awaitingRequests(user) : null,
    ]);
    const publicConfig: PublicConfigInput = {
      siteUrl: config.siteUrl,
      siteName: config.siteName,
      defaultLocale: config.defaultLocale,
      locales: config.locales,
      createUrl: '/api/records',
      dashboardUploadsRoute: '/me/uploads',
      isDoiRequired: config.doi.required,
      csrfCookieName: 'csrftoken',
      csrfHeaderName: 'X-CSRFToken',
      vocabularyCustomFields: config.editor.vocabularyCustomFields,
      customFieldsUi: config.editor.customFieldsUi,
      quota: { maxFiles: quota.maxFiles, maxStorage: quota.maxBytes },
      allowEmptyFiles: config.files.allowEmpty,
      fileUploadConcurrency: config.editor.uploadConcurrency,
      fileUploadBatchFiles: config.editor.uploadBatchFiles,
      defaultTransferType: config.editor.defaultTransferType,
      enabledTransferTypes: config.editor.enabledTransferTypes,
      publishModalExtra: config.editor.publishModalExtra,
      gracePeriodDays: config.access.restrictionGraceDays,
      allowRestrictionAfterGracePeriod: config.access.allowRestrictionAfterGrace,
      creatorMode: config.editor.creatorMode,
      userCommunitiesMemberships: memberships,
    };
    const bootstrap = {
      config: publicConfig,
      user: user
        ? {
            id: String(user.id),
            email: user.email,
            name: user.name,
            isAdmin: user.isAdmin,
            locale: user.locale ?? null,
            emailNotifications: user.emailNotifications !== false,
          }
        : null,
      vocabularies: {
        resourcetypes: resourceTypes
          .filter((e) => e.tags.includes('depositable') || e.tags.length === 0)
          .map((e) => ({ id: e.id, title: l10n(e.title, config.defaultLocale) }))
          .sort((a, b) => a.title.localeCompare(b.title)),
      },
      draft: page.draft ?? null,
      record: page.record ?? null,
      ...(page.permissions ? { permissions: page.permissions } : {}),
      ...(page.link ? { link: page.link } : {}),
      ...(page.grant ? { grant: page.grant } : {}),
      ...(page.filesListing ? { filesListing: page.filesListing } : {}),
      error: page.error ?? null,
      awaitingRequests,
    };
    const head = [
      `<title>${escapeHtml(page.title)} | ${escapeHtml(config.siteName)}</title>`,
      ...(page.page && preloads ? preloads[page.page] : []),
      ...(page.head ?? []),
      `<script id="cairn-bootstrap" type="application/json">${scriptJson(bootstrap)}</script>`,
    ].join('\n    ');
    return shell.replace(HEAD_MARKER, head);
  }

  function sendHtml(reply: FastifyReply, status: number, body: string | PassThrough) {
    return reply
      .status(status)
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(body);
  }

  async function render(request: FastifyRequest, reply: FastifyReply, page: Page) {
    return sendHtml(reply, page.error?.status ?? 200, await pageHtml(request, reply, page));
  }

  /**
   * Sends the page at once and `later()` as JSON in a script element `elementId` at the end of
   * its body once it is ready, so that the browser fetches and starts the app's scripts while the
   * server still works on the page's data (a draft of 10,000 creators: hundreds of milliseconds).
   * Should `later` fail, the element is left out and the page reads its data through the API,
   * which reports the problem.
   */
  async function renderStreamed(
    request: FastifyRequest,
    reply: FastifyReply,
    page: Page,
    elementId: string,
    later: () => Promise<unknown>,
  ) {
    const html = await pageHtml(request, reply, page);
    const bodyEnd = html.lastIndexOf('</body>');
    const body = new PassThrough();
    void sendHtml(reply, 200, body);
    body.write(html.slice(0, bodyEnd));
    let script = '';
    try {
      script = `<script id="${elementId}" type="application/json">${scriptJson(await later())}</script>`;
    } catch (error) {
      request.log.error(error);
    }
    body.end(script + html.slice(bodyEnd));
    return reply;
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
    page: PageName,
    load: () => Promise<Record<string, unknown>>,
  ) {
    try {
      return await render(request, reply, { title, page, ...(await load()) });
    } catch (error) {
      return renderError(request, reply, error);
    }
  }

  /**
   * A client error (404, 403, …) as the page, with its status; anything else is thrown on. A
   * deleted record's page is its tombstone, the removal reason with its titles to show.
   */
  async function renderError(request: FastifyRequest, reply: FastifyReply, error: unknown) {
    if (!(error instanceof AppError) || error.status >= 500) throw error;
    let tombstone = error.extra?.tombstone as Tombstone | undefined;
    if (tombstone?.removal_reason) {
      const reason = (await deps.vocabularies.snapshot())(
        'removalreasons',
        tombstone.removal_reason.id,
      );
      if (reason)
        tombstone = {
          ...tombstone,
          removal_reason: { ...tombstone.removal_reason, title: reason.title },
        };
    }
    return render(request, reply, {
      title: error.message,
      error: { status: error.status, message: error.message, ...(tombstone ? { tombstone } : {}) },
      ...(tombstone ? { head: ['<meta name="robots" content="noindex">'] } : {}),
    });
  }

  // A reader's front door: the search box and the latest records, signed in or not.
  for (const [route, title, page] of [
    ['/', 'Home', 'home'],
    ['/search', 'Search', 'search'],
    ['/login', 'Log in', 'login'],
    ['/signup', 'Sign up', 'signup'],
  ] as const) {
    app.get(route, async (request, reply) => render(request, reply, { title, page }));
  }
  app.get('/me/uploads', async (request, reply) =>
    requireLogin(request, reply)
      ? render(request, reply, { title: 'My uploads', page: 'uploads' })
      : reply,
  );
  app.get('/account/tokens', async (request, reply) =>
    requireLogin(request, reply)
      ? render(request, reply, { title: 'Your account', page: 'tokens' })
      : reply,
  );
  app.get('/uploads/new', async (request, reply) =>
    requireLogin(request, reply)
      ? render(request, reply, { title: 'New upload', page: 'deposit' })
      : reply,
  );
  app.get('/me/requests', async (request, reply) =>
    requireLogin(request, reply)
      ? render(request, reply, { title: 'Requests', page: 'requests' })
      : reply,
  );
  app.get('/me/requests/:id', async (request, reply) =>
    requireLogin(request, reply)
      ? render(request, reply, { title: 'Request', page: 'request' })
      : reply,
  );
  // Where the link e-mailed to a guest who asked for access leads (no account needed).
  app.get('/access-requests/verify', async (request, reply) =>
    render(request, reply, { title: 'Confirm your request', page: 'verifyAccessRequest' }),
  );
  app.get('/communities', async (request, reply) =>
    render(request, reply, { title: 'Communities', page: 'communities' }),
  );
  app.get('/communities/new', async (request, reply) =>
    requireLogin(request, reply)
      ? render(request, reply, { title: 'New community', page: 'newCommunity' })
      : reply,
  );
  app.get('/communities/:slug', async (request, reply) =>
    render(request, reply, { title: 'Community', page: 'community' }),
  );
  app.get<{ Params: { slug: string } }>('/communities/:slug/requests', async (request, reply) => {
    if (!requireLogin(request, reply)) return reply;
    return guarded(request, reply, 'Community requests', 'communityRequests', async () => {
      await deps.allowedInCommunity(request.identity.user, request.params.slug, 'can_curate');
      return {};
    });
  });

  // Its members (and administrators) only; others find no such page, as the API answers them.
  app.get<{ Params: { slug: string } }>('/communities/:slug/members', async (request, reply) => {
    if (!requireLogin(request, reply)) return reply;
    return guarded(request, reply, 'Community members', 'communityMembers', async () => {
      const { user } = request.identity;
      await deps.allowedInCommunity(user, request.params.slug, 'can_read_members');
      return {};
    });
  });

  const typed = app.withTypeProvider<ZodTypeProvider>();
  const byId = { schema: { params: RecordIdParams } };

  typed.get('/uploads/:id', byId, async (request, reply) => {
    if (!requireLogin(request, reply)) return reply;
    const { id } = request.params;
    let result: Awaited<ReturnType<RecordDraftsService['readDraft']>>;
    try {
      // The editor is for those who may save the draft: an edit link, not a preview link.
      result = await deps.drafts.readDraft(request.identity.user, id, {
        link: request.identity.link,
        need: 'review',
      });
    } catch (error) {
      // A published record without an open draft: the page offers its owner to edit it.
      if (
        error instanceof AppError &&
        error.status === 404 &&
        (await deps.access.canEditPublished(request.identity.user, id))
      ) {
        return render(request, reply, { title: 'Edit upload', page: 'deposit' });
      }
      return renderError(request, reply, error);
    }
    const user = request.identity.user;
    const permissions = await deps.access.draftPermissions(user, result.parent);
    // The draft follows the page: checking and presenting 10,000 creators takes a while.
    return renderStreamed(
      request,
      reply,
      {
        title: 'Edit upload',
        page: 'deposit',
        permissions,
        ownerId: result.parent.ownerId,
        communityIds: communitiesNamedBy(result.parent),
        ...listingOf(
          `/api/records/${encodeURIComponent(id)}/draft/files`,
          readSummary(result.row.filesSummary),
        ),
      },
      STREAMED_DRAFT_ELEMENT_ID,
      async () => {
        const { data, errors } = deps.drafts.draftFeedback(result.row);
        // Without `ui`: the form never reads it, and with it a draft of 10,000 creators doubles
        // in size (its creators again, with labels), which the browser must parse.
        const options = { ...(await presentOptions()), ui: false };
        // The community the draft is submitted to, as the API expands it: the editor's header
        // and buttons need it after a reload.
        const expandedParent = await deps.expandParent(result.parent, user, true);
        const draft = presentDraft(result.row, result.parent, {
          ...(await withIndexedLookup(options, [{ data }], deps.vocabularies)),
          ...(expandedParent ? { expandedParent } : {}),
          isPublished: result.isPublished,
          isLatestDraft: result.isLatestDraft,
        });
        if (errors.length > 0) draft.errors = errors;
        return draft;
      },
    );
  });

  // A record's `latest_html`: the notice on an older version links here, and it stays right
  // however many versions follow.
  typed.get('/records/:id/latest', byId, async (request, reply) => {
    const { id } = request.params;
    try {
      const latest = await deps.access.latestVersionId(request.identity.user, id);
      return await reply.redirect(`/records/${encodeURIComponent(latest)}`);
    } catch (error) {
      return renderError(request, reply, error);
    }
  });

  /**
   * The page's `link` and `grant`: what the request's secret link and the reader's grant give on
   * the page's record, if anything (the page lists restricted files to either).
   */
  async function sharingOf(
    request: FastifyRequest,
    parent: ParentRow,
  ): Promise<Pick<Page, 'link' | 'grant'>> {
    const link = request.identity.link;
    const grant = await deps.access.grantOf(request.identity.user, parent);
    return {
      ...(link && linkAllows(link, parent, 'view')
        ? { link: { permission: link.permission } }
        : {}),
      ...(grant ? { grant: { permission: grant } } : {}),
    };
  }

  typed.get('/records/:id', byId, async (request, reply) => {
    const { id } = request.params;
    const preview = queryOf(request).preview === '1';
    const found = preview
      ? undefined
      : await deps.access
          .readRecord(request.identity.user, id, request.identity.link)
          .catch(() => undefined);
    if (found && 'redirect' in found) return reply.redirect(`/records/${found.redirect}`);
    return guarded(request, reply, 'Record', 'record', async () => {
      // The page shows the people from the metadata; `ui` would repeat them with labels.
      const o = { ...(await presentOptions()), uiPeople: false };
      if (preview) {
        try {
          const result = await deps.drafts.readDraft(request.identity.user, id, {
            link: request.identity.link,
          });
          return {
            ...(await sharingOf(request, result.parent)),
            record: presentDraft(result.row, result.parent, {
              ...(await withIndexedLookup(o, [result.row], deps.vocabularies)),
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
      // Read again only to answer the error the first read swallowed, through the error page.
      const result =
        found ?? (await deps.access.readRecord(request.identity.user, id, request.identity.link));
      if ('redirect' in result) return {};
      const record = presentRecord(
        result.row,
        result.parent,
        await withIndexedLookup(o, [result.row], deps.vocabularies),
      );
      const exported = record as unknown as ExportRecord;
      const ctx = { siteUrl: config.siteUrl, siteName: config.siteName, vocab: o.vocab };
      const files = record.files as { entries_omitted?: boolean } | undefined;
      const { user, link } = request.identity;
      const access = { access: record.access as RecordData['access'] };
      const head = [
        ...recordHead(exported, ctx),
        ...(files?.entries_omitted &&
        (await deps.access.mayReadFiles(user, result.parent, access, link))
          ? [listingPreload(`/api/records/${encodeURIComponent(result.row.id)}/files`)]
          : []),
      ];
      // Signposting for machine agents: the same links whoever reads the page, as in the head's
      // exports, so an owner reading a restricted record sees no files listed either.
      void reply.header(
        'link',
        signpostingHeader(exported, ctx, config.signposting.maxLinksPerRelation),
      );
      return {
        ...(await sharingOf(request, result.parent)),
        record,
        head,
        title: String((record.metadata as { title?: string }).title ?? 'Record'),
      };
    });
  });
}
