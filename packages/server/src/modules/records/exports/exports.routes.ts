import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { RecordExportParams } from '@cairn/shared';
import type { Config } from '../../../config.js';
import { AppError } from '../../../errors.js';
import type { VocabulariesService } from '../../vocabularies/vocabularies.service.js';
import { presentRecord, withIndexedLookup } from '../records.presenter.js';
import type { RecordAccessService } from '../records-access.service.js';
import type { RecordResult } from '../records.shared.js';
import { exportFormatByName, type ExportFormat } from './export-formats.js';
import type { ExportRecord } from './export-record.js';
import { routesPlugin } from '../../../lib/http.js';

export interface ExportDeps {
  config: Config;
  vocabularies: VocabulariesService;
}

/** A readable record (the caller's access already checked) in one export format. */
export async function renderExport(
  result: RecordResult,
  format: ExportFormat,
  deps: ExportDeps,
): Promise<string> {
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
  return format.render(json as unknown as ExportRecord, {
    siteUrl: config.siteUrl,
    siteName: config.siteName,
    vocab,
  });
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
    .type(format.mediaType)
    .send(await renderExport(result, format, deps));
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
