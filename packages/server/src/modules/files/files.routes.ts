import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  BinaryBody,
  ContentQuery,
  FileItemSchema,
  FileKeyParams,
  FilesListQuery,
  FilesListSchema,
  ReceivedPartsSchema,
  ContainerListingSchema,
  FileMetadataBody,
  FilesOwnerParams,
  InitFilesBody,
  FILES_LIST_MAX,
  FILES_UPLOAD_BATCH_MAX,
  FilesUploadBody,
  FilesUploadResultSchema,
  type ErrorCode,
} from '@cairn/shared';
import { z } from 'zod';
import type { Config } from '../../config.js';
import { AppError } from '../../errors.js';
import { acceptOnly, bodyStream, JSON_TYPE, VND_TYPE, routesPlugin } from '../../lib/http.js';
import { parseClientJson } from '../../lib/client-text.js';
import { documentedBody, documentedResponse, noContent } from '../../lib/openapi.js';
import { parseRange } from '../../lib/http-range.js';
import { zipSize, zipStream } from '../../lib/zip-stream.js';
import type { BucketContext, FileRef, FileView } from './files.buckets.js';
import type { FilesService } from './files.service.js';
import { presentFile, presentFiles } from './files.presenter.js';
import { isSafeInline } from './mimetypes.js';
import { listContainer } from './archive-listing.js';
import { fail } from './files.errors.js';
import { backLinkHeader } from '../records/signposting.js';
import { formParts } from '../../lib/form-parts.js';

const FILE_TYPES = [JSON_TYPE, VND_TYPE] as const;
const acceptFileTypes = acceptOnly(FILE_TYPES);
const FILES = documentedResponse(FilesListSchema, 'The files');
const FILE = documentedResponse(FileItemSchema, 'The file');
const FILE_OR_CONTENT = documentedResponse(
  z.union([FileItemSchema, ReceivedPartsSchema, ContainerListingSchema, BinaryBody]),
  'The file, the parts received so far, what an archive holds, or the content',
);
const PART_OF_CONTENT = documentedResponse(BinaryBody, 'The range of the content asked for');
const ZIP = documentedResponse(BinaryBody, 'A zip archive');
const ArchiveQuery = z.looseObject({
  prefix: z
    .string()
    .optional()
    .describe('Only the files in this folder (keys starting with it and a "/"), e.g. raw/2024'),
});
const draftTags = ['Draft files'];
const recordTags = ['Record files'];

/** Route config read by the content-type hook: these routes take raw bytes, not JSON. */
export const BINARY_ROUTE = { binaryBody: true } as const;
/** Route config read by the content-type parser: this route reads its multipart body itself. */
export const FORM_ROUTE = { formBody: true } as const;
const UPLOADED = documentedResponse(
  FilesUploadResultSchema,
  'The files stored and committed, and those refused with the reason of each',
);

type Suffix =
  | { kind: 'content' }
  | { kind: 'part'; part: number }
  | { kind: 'commit' }
  | { kind: 'parts' }
  | { kind: 'container' }
  | { kind: 'item' };

/**
 * Keys may hold "/" (folders), so `…/files/a/b.csv/content` must be split after the fact. A
 * suffix counts when the key before it exists, so a file literally named "x/commit" is still
 * reachable as an item; when neither exists, the suffix stands, so the answer is the missing
 * file's 404 rather than a complaint about the body (for the suffixes the method serves). The
 * file found comes along, so that the request does not read it again.
 */
async function splitKey(
  rest: string,
  lookup: (key: string) => Promise<FileRef['found']>,
  methodSuffixes: ReadonlyArray<Suffix['kind']>,
): Promise<{ file: FileRef; suffix: Suffix }> {
  const candidates: Array<[RegExp, (m: RegExpExecArray) => Suffix]> = [
    [/^(.+)\/content\/(\d+)$/, (m) => ({ kind: 'part', part: Number(m[2]) })],
    [/^(.+)\/content$/, () => ({ kind: 'content' })],
    [/^(.+)\/commit$/, () => ({ kind: 'commit' })],
    [/^(.+)\/parts$/, () => ({ kind: 'parts' })],
    [/^(.+)\/container$/, () => ({ kind: 'container' })],
  ];
  let unknown: { file: FileRef; suffix: Suffix } | undefined;
  for (const [pattern, suffix] of candidates) {
    const m = pattern.exec(rest);
    if (!m) continue;
    const found = await lookup(m[1]!);
    if (found) return { file: { key: m[1]!, found }, suffix: suffix(m) };
    const candidate = suffix(m);
    if (methodSuffixes.includes(candidate.kind))
      unknown ??= { file: { key: m[1]! }, suffix: candidate };
  }
  const whole = unknown ? await lookup(rest) : undefined;
  if (unknown && !whole) return unknown;
  return { file: { key: rest, ...(whole ? { found: whole } : {}) }, suffix: { kind: 'item' } };
}

/** The announced body length, when the client sent one. */
function contentLength(request: FastifyRequest): number | undefined {
  const header = request.headers['content-length'];
  return header !== undefined && /^\d+$/.test(header) ? Number(header) : undefined;
}

/**
 * Uploaded bytes are never a page of this site: no scripts, no sniffing, no framing — except
 * PDFs, which the landing page's preview frames from the same site.
 */
function securityHeaders(reply: FastifyReply, mimetype?: string): void {
  const framable = mimetype === 'application/pdf';
  void reply.headers({
    'content-security-policy': framable
      ? "default-src 'none'; frame-ancestors 'self';"
      : "default-src 'none';",
    'x-content-type-options': 'nosniff',
    'x-download-options': 'noopen',
    'x-frame-options': framable ? 'sameorigin' : 'deny',
  });
}

function contentDisposition(key: string, inline: boolean): string {
  const name = key.slice(key.lastIndexOf('/') + 1);
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `${inline ? 'inline' : 'attachment'}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** InvenioRDM's files resource for drafts and published records, plus resumable parts. */
export const fileRoutes = routesPlugin<{ config: Config; files: FilesService }>(
  (app: FastifyInstance, { config, files }) => {
    const site = config.siteUrl;
    const api = app.withTypeProvider<ZodTypeProvider>();
    type ForBucket = FastifyRequest & { params: { id: string } };
    // Reading a draft's files needs what reading the draft needs; every other method changes them.
    const draft = (request: ForBucket) =>
      files.draftContext(
        request.identity.user,
        request.params.id,
        request.method === 'GET' || request.method === 'HEAD' ? 'read' : 'review',
        request.identity.link,
      );
    const record = (request: ForBucket) =>
      files.recordContext(request.identity.user, request.params.id, request.identity.link);

    async function resolve(
      context: BucketContext,
      rest: string,
      methodSuffixes: ReadonlyArray<Suffix['kind']>,
    ) {
      return splitKey(rest, (key) => files.lookup(context, key), methodSuffixes);
    }

    function sendFile(reply: FastifyReply, context: BucketContext, view: FileView) {
      return reply.type(JSON_TYPE).send(presentFile(site, context, view));
    }

    async function download(
      request: FastifyRequest,
      reply: FastifyReply,
      context: BucketContext,
      file: FileRef,
    ) {
      const head = await files.content(context, file);
      const object = head.view.object!;
      const range = parseRange(request.headers.range, object.size);
      const md5 = object.checksum.slice('md5:'.length);
      const mimetype = head.view.row.mimetype;
      securityHeaders(reply, mimetype);
      void reply.headers({
        'accept-ranges': 'bytes',
        etag: `"${md5}"`,
        'last-modified': new Date(head.view.row.updatedAt).toUTCString(),
        'content-md5': Buffer.from(md5, 'hex').toString('base64'),
        'content-disposition': contentDisposition(head.view.row.key, isSafeInline(mimetype)),
      });
      void reply.type(mimetype);
      if (range.kind === 'unsatisfiable') {
        return reply
          .status(416)
          .header('content-range', `bytes */${object.size}`)
          .type(JSON_TYPE)
          .send({
            status: 416,
            message: 'Requested range not satisfiable.',
            code: 'RANGE_NOT_SATISFIABLE' satisfies ErrorCode,
          });
      }
      const partial = range.kind === 'range';
      const length = partial ? range.end - range.start + 1 : object.size;
      void reply.header('content-length', String(length));
      if (partial)
        void reply
          .status(206)
          .header('content-range', `bytes ${range.start}-${range.end}/${object.size}`);
      if (request.method === 'HEAD' || length === 0) return reply.send();
      return reply.send(
        await head.open(partial ? { start: range.start, end: range.end } : undefined),
      );
    }

    async function container(reply: FastifyReply, context: BucketContext, file: FileRef) {
      const head = await files.content(context, file);
      const listing = await listContainer(
        head.view.row.key,
        head.view.row.mimetype,
        head.view.object!.size,
        head.open,
      );
      return reply.type(JSON_TYPE).send({ key: head.view.row.key, ...listing });
    }

    async function archive(reply: FastifyReply, context: BucketContext, folder?: string) {
      const entries = await files.archive(context, folder);
      securityHeaders(reply);
      // "raw/2024" downloads as {id}-raw-2024.zip; its entries keep their whole keys.
      const name = folder
        ? `${context.recordId}-${folder.replace(/\/+$/, '').replace(/[^\w.-]+/g, '-')}`
        : context.recordId;
      return reply
        .type('application/zip')
        .headers({
          'content-disposition': `attachment; filename="${name}.zip"`,
          'content-length': String(zipSize(entries)),
        })
        .send(zipStream(entries));
    }

    // ---- draft bucket

    api.get(
      '/api/records/:id/draft/files',
      {
        onRequest: acceptFileTypes,
        schema: {
          response: { 200: FILES },
          tags: [...draftTags, 'Cairn extension'],
          summary: `List draft files: up to ${FILES_LIST_MAX}, or a page of them (?page=&size=, Cairn extension)`,
          params: FilesOwnerParams,
          querystring: FilesListQuery,
        },
      },
      async (request, reply) =>
        reply
          .type(JSON_TYPE)
          .send(presentFiles(site, await files.list(await draft(request), request.query))),
    );

    api.post(
      '/api/records/:id/draft/files',
      {
        onRequest: acceptFileTypes,
        schema: {
          response: { 201: FILES },
          tags: draftTags,
          summary: `Initialise files (array of {key, size?, checksum?, transfer?}); 201 with every entry, or past ${FILES_LIST_MAX} files those announced`,
          params: FilesOwnerParams,
          body: documentedBody(InitFilesBody),
        },
      },
      async (request, reply) => {
        const context = await draft(request);
        return reply
          .status(201)
          .type(JSON_TYPE)
          .send(presentFiles(site, await files.init(request.identity.user, context, request.body)));
      },
    );

    api.post(
      '/api/records/:id/draft/files-upload',
      {
        config: FORM_ROUTE,
        onRequest: acceptFileTypes,
        schema: {
          response: { 200: UPLOADED },
          tags: [...draftTags, 'Cairn extension'],
          summary: `Upload and commit up to ${FILES_UPLOAD_BATCH_MAX} announced files in one request`,
          description:
            'A multipart/form-data body: first the field `files`, a JSON list of `{key, size}`, then one `content` part per file, in the same order. Each file is stored and committed as `PUT …/{key}/content?commit=true` would, with the same checks; a file refused (not announced, a size other than announced, over the quota) is listed in `errors` with its status and message, and the files after it go on. A folder of small files otherwise costs a request, its authentication and its draft lookup per file, which holds a browser to a few dozen files a second.',
          params: FilesOwnerParams,
          consumes: ['multipart/form-data'],
          body: documentedBody(FilesUploadBody),
        },
      },
      async (request, reply) => {
        const context = await draft(request);
        const parts = formParts(request.headers, bodyStream(request), {
          fieldBytes: config.bodyLimitBytes,
          files: FILES_UPLOAD_BATCH_MAX,
        });
        const { committed, errors } = await files.uploadBatch(
          request.identity.user,
          context,
          parts,
        );
        return reply.type(JSON_TYPE).send({
          entries: committed.map((view) => presentFile(site, context, view)),
          errors,
        });
      },
    );

    api.delete(
      '/api/records/:id/draft/files',
      {
        schema: {
          response: { 204: noContent('Deleted') },
          tags: draftTags,
          summary: 'Delete every draft file (204)',
          params: FilesOwnerParams,
        },
      },
      async (request, reply) => {
        await files.deleteAll(request.identity.user, await draft(request));
        return reply.status(204).send();
      },
    );

    // GET and HEAD are registered explicitly: Fastify's automatic HEAD would read a whole file.
    api.route({
      method: ['GET', 'HEAD'],
      url: '/api/records/:id/draft/files/*',
      schema: {
        response: { 200: FILE_OR_CONTENT, 206: PART_OF_CONTENT },
        tags: draftTags,
        summary:
          'A draft file ({key}), its content ({key}/content, Range and HEAD supported), what a zip or tar file holds ({key}/container), or the parts received so far ({key}/parts, Cairn extension)',
        params: FileKeyParams,
      },
      handler: async (request, reply) => {
        const context = await draft(request);
        const { file, suffix } = await resolve(context, request.params['*'], [
          'content',
          'parts',
          'container',
        ]);
        if (suffix.kind === 'content') return download(request, reply, context, file);
        if (suffix.kind === 'container') return container(reply, context, file);
        if (suffix.kind === 'parts') {
          const { row, received, missing } = await files.receivedParts(context, file);
          return reply.type(JSON_TYPE).send({
            key: row.key,
            transfer: { type: row.transferType, parts: row.parts, part_size: row.partSize },
            size: row.declaredSize,
            received: received.map((p) => ({
              part: p.part,
              size: p.size,
              checksum: `md5:${p.md5}`,
            })),
            missing,
          });
        }
        if (suffix.kind !== 'item') throw new AppError('METHOD_NOT_ALLOWED');
        return sendFile(reply, context, await files.item(context, file));
      },
    });

    api.put(
      '/api/records/:id/draft/files/*',
      {
        config: BINARY_ROUTE,
        schema: {
          response: { 200: FILE },
          tags: draftTags,
          summary:
            'Upload content ({key}/content), one multipart part ({key}/content/{n}, Content-MD5 checked), or replace file metadata ({key}); content and parts answer 409 while the file is being committed. Cairn extension: {key}/content?commit=true commits the file too and answers it committed',
          params: FileKeyParams,
          querystring: ContentQuery,
          consumes: ['application/octet-stream', 'application/json'],
          body: documentedBody(
            z.union([BinaryBody, FileMetadataBody]),
            'Bytes (application/octet-stream) for the content and parts; JSON for the metadata',
          ),
        },
      },
      async (request, reply) => {
        const context = await draft(request);
        const { file, suffix } = await resolve(context, request.params['*'], ['content', 'part']);
        const body = bodyStream(request);
        const commit = request.query.commit === 'true';
        if (commit && suffix.kind !== 'content')
          throw fail('Only content can be committed as it is sent: …/{key}/content?commit=true.');
        if (suffix.kind === 'content') {
          const user = request.identity.user;
          const stored = await files.putContent(user, context, file, body, contentLength(request));
          // Stored but refused at the commit (an empty file, a checksum announced otherwise): the
          // file stays pending with these bytes, as after a PUT and a refused commit.
          return sendFile(
            reply,
            context,
            commit
              ? await files.commit(user, context, { key: stored.row.key, found: stored })
              : stored,
          );
        }
        if (suffix.kind === 'part') {
          const md5 = request.headers['content-md5'];
          return sendFile(
            reply,
            context,
            await files.putPart(
              request.identity.user,
              context,
              file,
              suffix.part,
              body,
              typeof md5 === 'string' ? md5 : undefined,
            ),
          );
        }
        if (suffix.kind !== 'item') throw new AppError('METHOD_NOT_ALLOWED');
        const json =
          request.body instanceof Readable
            ? await readJsonStream(body, config.bodyLimitBytes)
            : request.body;
        return sendFile(
          reply,
          context,
          await files.updateMetadata(request.identity.user, context, file, json),
        );
      },
    );

    api.post(
      '/api/records/:id/draft/files/*',
      {
        schema: {
          response: { 200: FILE },
          tags: [...draftTags, 'Cairn extension'],
          summary:
            'Commit an uploaded file ({key}/commit). Cairn extension: 409 with Retry-After while another commit of the file runs; a commit cut off by a crash is taken over, and finished, once its lease runs out',
          params: FileKeyParams,
        },
      },
      async (request, reply) => {
        const context = await draft(request);
        const { file, suffix } = await resolve(context, request.params['*'], ['commit']);
        if (suffix.kind !== 'commit') throw new AppError('METHOD_NOT_ALLOWED');
        return sendFile(reply, context, await files.commit(request.identity.user, context, file));
      },
    );

    api.delete(
      '/api/records/:id/draft/files/*',
      {
        schema: {
          response: { 204: noContent('Deleted') },
          tags: draftTags,
          summary: 'Delete a draft file, aborting an unfinished upload (204)',
          params: FileKeyParams,
        },
      },
      async (request, reply) => {
        const context = await draft(request);
        await files.delete(request.identity.user, context, request.params['*']);
        return reply.status(204).send();
      },
    );

    api.get(
      '/api/records/:id/draft/files-archive',
      {
        schema: {
          response: { 200: ZIP },
          tags: draftTags,
          summary: 'Every draft file as one zip (or of one folder: ?prefix=, Cairn extension)',
          params: FilesOwnerParams,
          querystring: ArchiveQuery,
        },
      },
      async (request, reply) => archive(reply, await draft(request), request.query.prefix),
    );

    api.post(
      '/api/records/:id/draft/actions/files-import',
      {
        onRequest: acceptFileTypes,
        schema: {
          response: { 201: FILES },
          tags: draftTags,
          summary: "Import the previous version's files without copying bytes (201)",
          params: FilesOwnerParams,
        },
      },
      async (request, reply) => {
        const { id } = request.params;
        return reply
          .status(201)
          .type(JSON_TYPE)
          .send(
            presentFiles(
              site,
              await files.importFromPrevious(request.identity.user, id, request.identity.link),
            ),
          );
      },
    );

    // ---- published record bucket (read-only)

    api.get(
      '/api/records/:id/files',
      {
        onRequest: acceptFileTypes,
        schema: {
          response: { 200: FILES },
          tags: [...recordTags, 'Cairn extension'],
          summary: `List record files: up to ${FILES_LIST_MAX}, or a page of them (?page=&size=, Cairn extension)`,
          params: FilesOwnerParams,
          querystring: FilesListQuery,
        },
      },
      async (request, reply) =>
        reply
          .type(JSON_TYPE)
          .send(presentFiles(site, await files.list(await record(request), request.query))),
    );

    api.route({
      method: ['GET', 'HEAD'],
      url: '/api/records/:id/files/*',
      schema: {
        response: { 200: FILE_OR_CONTENT, 206: PART_OF_CONTENT },
        tags: recordTags,
        summary:
          'A record file ({key}), its content ({key}/content; Range and HEAD supported), or what a zip or tar file holds ({key}/container)',
        description:
          "Cairn extension: the content carries a `Link` header naming the record's landing page as its `collection` and the record's `linkset` (FAIR Signposting). The container listing follows InvenioRDM's (a tree of `{key, type, size}` entries, `total`, `truncated`, at most 1,000 entries) and adds tar and tar.gz to zip.",
        params: FileKeyParams,
      },
      handler: async (request, reply) => {
        const context = await record(request);
        const { file, suffix } = await resolve(context, request.params['*'], [
          'content',
          'container',
        ]);
        if (suffix.kind === 'container') return container(reply, context, file);
        if (suffix.kind === 'content') {
          // A published file's content names the landing page it belongs to (FAIR Signposting).
          void reply.header('link', backLinkHeader('collection', site, request.params.id));
          return download(request, reply, context, file);
        }
        if (suffix.kind !== 'item')
          throw new AppError('NOT_FOUND', `File with key ${file.key} not found.`);
        return sendFile(reply, context, await files.item(context, file));
      },
    });

    api.get(
      '/api/records/:id/files-archive',
      {
        schema: {
          response: { 200: ZIP },
          tags: recordTags,
          summary: 'Every record file as one zip (or of one folder: ?prefix=, Cairn extension)',
          params: FilesOwnerParams,
          querystring: ArchiveQuery,
        },
      },
      async (request, reply) => archive(reply, await record(request), request.query.prefix),
    );
  },
);

/** File metadata updates share the binary-capable route, so their JSON is read here. */
async function readJsonStream(body: Readable | undefined, limit: number): Promise<unknown> {
  if (!body) return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) throw new AppError('PAYLOAD_TOO_LARGE');
    chunks.push(chunk);
  }
  return parseClientJson(Buffer.concat(chunks));
}
