// Route-level settings Cairn's own hooks and body parsers read (see app.ts).
import 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route takes raw bytes on `…/content` paths (file content and multipart parts). */
    binaryBody?: boolean;
  }
}
