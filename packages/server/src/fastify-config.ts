// Route-level settings Cairn's own hooks and body parsers read (see app.ts).
import 'fastify';
import type { ThrottledAction } from './modules/throttle/throttle.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route takes raw bytes on `…/content` paths (file content and multipart parts). */
    binaryBody?: boolean;
    /** The route reads a multipart/form-data body itself, part by part (a batch of files). */
    formBody?: boolean;
    /** Each request counts against the action's limits, per account and per address. */
    throttle?: ThrottledAction;
    /**
     * A POST that only reads, as a form can send a query (OAI-PMH): no CSRF token is asked of it,
     * since a forged one can change nothing.
     */
    readOnlyPost?: boolean;
    /** What a 413 says on this route instead of the generic "The request body is too large.". */
    bodyTooLargeMessage?: string;
  }
}
