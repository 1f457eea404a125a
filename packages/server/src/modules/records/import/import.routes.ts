import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  IMPORT_FILE_FORMATS,
  ImportMetadataAnswerSchema,
  ImportMetadataBody,
  RecordIdParams,
} from '@cairn/shared';
import type { Config } from '../../../config.js';
import { AppError } from '../../../errors.js';
import { acceptOnly, JSON_TYPE, routesPlugin } from '../../../lib/http.js';
import { documentedBody, documentedResponse } from '../../../lib/openapi.js';
import { fileTooLarge, type ImportInput, type MetadataImportService } from './import.service.js';

export interface ImportMetadataRouteDeps {
  config: Config;
  imports: MetadataImportService;
}

const BODY_MESSAGE = `Send {"doi": "10.…"} or {"content": "<the file's text>", "format": one of ${IMPORT_FILE_FORMATS.join(', ')} (optional)}.`;

/** The body as the service takes it, or 400 saying what the route takes. */
function importInput(body: unknown): ImportInput {
  const parsed = ImportMetadataBody.safeParse(body);
  if (parsed.success) return parsed.data;
  const format = (body as { format?: unknown } | null)?.format;
  const message =
    format !== undefined && !(IMPORT_FILE_FORMATS as readonly unknown[]).includes(format)
      ? `Unknown format ${JSON.stringify(format)}: one of ${IMPORT_FILE_FORMATS.join(', ')}.`
      : BODY_MESSAGE;
  throw new AppError('VALIDATION_FAILED', message, [{ field: 'body', messages: [message] }]);
}

/**
 * Cairn extension: metadata read from a DOI (DataCite, then Crossref) or a file (BibTeX, RIS,
 * CITATION.cff, DataCite JSON or XML, CodeMeta, InvenioRDM or Zenodo JSON), answered in the
 * draft's shapes for the editor's review. Nothing is saved.
 */
export const importMetadataRoutes = routesPlugin<ImportMetadataRouteDeps>(
  (app: FastifyInstance, deps) => {
    const api = app.withTypeProvider<ZodTypeProvider>();
    const limit = deps.config.metadataImport.maxFileBytes;
    api.post(
      '/api/records/:id/draft/actions/import-metadata',
      {
        onRequest: acceptOnly([JSON_TYPE]),
        // JSON escapes can double a file's size; the file itself is held to the limit after.
        bodyLimit: limit * 2 + 64 * 1024,
        config: { bodyTooLargeMessage: fileTooLarge(deps.config).message },
        schema: {
          tags: ['Records and drafts'],
          summary: 'Cairn extension: read metadata from a DOI or a file into the draft shapes',
          description: [
            'Answers the metadata an import would set, matched to the vocabularies (names by ORCID,',
            'affiliations and funders by ROR, licences to SPDX, languages to ISO 639-3, resource types),',
            'with what matched nothing in `unmatched`; saves nothing. Whoever may edit the draft may',
            'import. A DOI is read from DataCite, then Crossref: unknown to both 404, a registry',
            `unreachable 502, too slow 504. A file of more than ${limit} bytes: 413; unreadable or`,
            'not of its stated format: 400.',
          ].join(' '),
          params: RecordIdParams,
          body: documentedBody(ImportMetadataBody),
          response: {
            200: documentedResponse(ImportMetadataAnswerSchema, 'What the import would set'),
          },
        },
      },
      async (request, reply) => {
        const { user, link } = request.identity;
        // The body is judged after the draft's permission, as the draft's other actions do.
        const answer = await deps.imports.importMetadata(
          user,
          request.params.id,
          () => importInput(request.body),
          link,
        );
        return reply.type(JSON_TYPE).send(answer);
      },
    );
  },
);
