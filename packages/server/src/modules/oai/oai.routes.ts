import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { OaiService } from './oai.service.js';

/** Larger than any sensible OAI-PMH form: a resumption token and a handful of arguments. */
const FORM_LIMIT_BYTES = 16 * 1024;
/** A response is written in chunks of about this many characters, not a system call a record. */
const CHUNK_CHARS = 64 * 1024;

async function* coalesced(parts: AsyncIterable<string>): AsyncIterable<string> {
  let pending = '';
  for await (const part of parts) {
    pending += part;
    if (pending.length >= CHUNK_CHARS) {
      yield pending;
      pending = '';
    }
  }
  if (pending) yield pending;
}

/**
 * `/oai2d`, InvenioRDM's address for its OAI-PMH endpoint, on GET and on POST with a form body,
 * as the protocol allows both. Protocol errors are answered 200 with OAI-PMH's error elements;
 * only the protocol itself decides what a harvester hears.
 */
export async function registerOaiRoutes(app: FastifyInstance, oai: OaiService): Promise<void> {
  // In a scope of its own, so that no other route takes form bodies.
  await app.register((scope, _options, done) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: FORM_LIMIT_BYTES },
      (_request, body, done) => done(null, body),
    );
    const send = async (reply: FastifyReply, encoded: string) =>
      reply
        .type('text/xml; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(Readable.from(coalesced(await oai.respond(encoded))));
    scope.get('/oai2d', (request, reply) => {
      const url = request.raw.url ?? '';
      const at = url.indexOf('?');
      return send(reply, at < 0 ? '' : url.slice(at + 1));
    });
    scope.post('/oai2d', { config: { readOnlyPost: true } }, (request, reply) =>
      send(reply, typeof request.body === 'string' ? request.body : ''),
    );
    done();
  });
}
