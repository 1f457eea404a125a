import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { RecordExportParams } from '@cairn/shared';
import type { Config } from '../../../config.js';
import { AppError } from '../../../errors.js';
import type { VocabulariesService } from '../../vocabularies/vocabularies.service.js';
import { presentRecord, withIndexedLookup } from '../records.presenter.js';
import type { RecordAccessService } from '../records-access.service.js';
import type { RecordResult } from '../records.shared.js';
import { toBibliography } from './bibliography.js';
import { exportFormatByName, type ExportFormat } from './export-formats.js';
import type { ExportContext, ExportRecord } from './export-record.js';
import { routesPlugin } from '../../../lib/http.js';
import {
  LINKSET_JSON_TYPE,
  linkset,
  linksetText,
  backLinkHeader,
  type LINKSET_TYPES,
} from '../signposting.js';

export interface ExportDeps {
  config: Config;
  vocabularies: VocabulariesService;
}

/**
 * A readable record (the caller's access already checked) as exports read it, with what they
 * need besides.
 */
export async function exportView(
  result: RecordResult,
  deps: ExportDeps,
): Promise<{ record: ExportRecord; ctx: ExportContext }> {
  const { config } = deps;
  const vocab = await deps.vocabularies.snapshot();
  const options = {
    siteUrl: config.siteUrl,
    ui: false,
    expand: false,
    locale: config.defaultLocale,
    vocab,
  };
  const json = presentRecord(
    result.row,
    result.parent,
    await withIndexedLookup(options, [result.row], deps.vocabularies),
  );
  return {
    record: json as unknown as ExportRecord,
    ctx: { siteUrl: config.siteUrl, siteName: config.siteName, vocab },
  };
}

/** A readable record (the caller's access already checked) in one export format. */
export async function renderExport(
  result: RecordResult,
  format: ExportFormat,
  deps: ExportDeps,
): Promise<string> {
  const { record, ctx } = await exportView(result, deps);
  return format.render(record, ctx);
}

/** Sends an export as the answer to `Accept`: the negotiated type echoed in Content-Type. */
export async function sendExport(
  reply: FastifyReply,
  result: RecordResult,
  format: ExportFormat,
  deps: ExportDeps,
) {
  return reply
    .header('etag', `"${result.row.revisionId}"`)
    .header('link', backLinkHeader('describes', deps.config.siteUrl, result.row.id))
    .type(format.mediaType)
    .send(await renderExport(result, format, deps));
}

/**
 * Sends the record's citation for `Accept: text/x-bibliography`, as text/plain like
 * InvenioRDM's, which answers that type with a plain-text body.
 */
export async function sendBibliography(
  reply: FastifyReply,
  result: RecordResult,
  query: { style?: string | undefined; locale?: string | undefined },
  deps: ExportDeps,
) {
  const { record, ctx } = await exportView(result, deps);
  const text = toBibliography(record, ctx, query.style, query.locale);
  return reply
    .header('etag', `"${result.row.revisionId}"`)
    .header('link', backLinkHeader('describes', deps.config.siteUrl, result.row.id))
    .type('text/plain; charset=utf-8')
    .send(text);
}

/** Sends the record's FAIR Signposting linkset in the form `Accept` chose (RFC 9264). */
export async function sendLinkset(
  reply: FastifyReply,
  result: RecordResult,
  mediaType: (typeof LINKSET_TYPES)[number],
  deps: ExportDeps,
) {
  const { record, ctx } = await exportView(result, deps);
  const set = linkset(record, ctx);
  return reply
    .header('etag', `"${result.row.revisionId}"`)
    .type(mediaType)
    .send(mediaType === LINKSET_JSON_TYPE ? JSON.stringify(set) : linksetText(set));
}

/**
 * `/records/{id}/export/{format}`: the landing page's download links (InvenioRDM's
 * record_export view), the same content as `Accept` on the API, as an attachment.
 */
export const recordExportRoutes = routesPlugin<ExportDeps & { access: RecordAccessService }>(
  (app: FastifyInstance, deps) => {
    const params = { schema: { params: RecordExportParams } };
    app
      .withTypeProvider<ZodTypeProvider>()
      .get('/records/:id/export/:format', params, async (request, reply) => {
        const { id, format: name } = request.params;
        const format = exportFormatByName(name);
        if (!format) throw new AppError('NOT_FOUND');
        const result = await deps.access.readRecord(request.identity.user, id);
        if ('redirect' in result)
          return reply.redirect(`/records/${result.redirect}/export/${name}`);
        reply.header(
          'content-disposition',
          `attachment; filename=${result.row.id}.${format.extension}`,
        );
        return sendExport(reply, result, format, deps);
      });
  },
);
