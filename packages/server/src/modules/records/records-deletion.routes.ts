import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { DeleteRecordBody, RecordIdParams, RecordJsonSchema } from '@cairn/shared';
import type { Config } from '../../config.js';
import { bodyReader, DEFERRED_BODY } from '../../lib/body.js';
import {
  acceptOnly,
  JSON_TYPE,
  negotiate,
  requestLocale,
  routesPlugin,
  VND_TYPE,
} from '../../lib/http.js';
import { documentedResponse, noContent } from '../../lib/openapi.js';
import type { VocabulariesService } from '../vocabularies/vocabularies.service.js';
import type { RecordDeletionService } from './records-deletion.service.js';
import type { RecordsRenderer } from './records.rendering.js';

const TYPES = [JSON_TYPE, VND_TYPE] as const;

export interface DeletionRouteDeps {
  config: Config;
  deletion: RecordDeletionService;
  renderer: RecordsRenderer;
  vocabularies: VocabulariesService;
}

/** InvenioRDM's deletion and restoration of a published record, by administrators. */
export const recordDeletionRoutes = routesPlugin<DeletionRouteDeps>(
  (app: FastifyInstance, deps) => {
    const { config, deletion, renderer } = deps;
    const api = app.withTypeProvider<ZodTypeProvider>();
    const tags = ['Records and drafts'];

    api.delete(
      '/api/records/:id/delete',
      {
        onRequest: acceptOnly(TYPES),
        ...DEFERRED_BODY,
        schema: {
          response: { 204: noContent('Deleted: the record answers 410 with its tombstone') },
          tags,
          summary:
            'Delete a published record (administrators): 204; 400 when it is already deleted or the reason is unknown',
          params: RecordIdParams,
          body: DeleteRecordBody,
        },
      },
      async (request, reply) => {
        await deletion.delete(request.identity.user, request.params.id, bodyReader(request));
        return reply.status(204).send();
      },
    );

    api.post(
      '/api/records/:id/restore',
      {
        onRequest: acceptOnly(TYPES),
        schema: {
          response: { 200: documentedResponse(RecordJsonSchema, 'The restored record') },
          tags,
          summary: 'Restore a deleted record (administrators); 400 when it is not deleted',
          params: RecordIdParams,
        },
      },
      async (request, reply) => {
        const result = await deletion.restore(request.identity.user, request.params.id);
        const type = negotiate(request, TYPES);
        const body = await renderer.record(result, {
          siteUrl: config.siteUrl,
          ui: type === VND_TYPE,
          expand: false,
          locale: requestLocale(request, config.locales, config.defaultLocale),
          vocab: await deps.vocabularies.snapshot(),
        });
        return reply.header('etag', `"${result.row.revisionId}"`).type(type).send(body);
      },
    );
  },
);
