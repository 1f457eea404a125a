import type { FastifyInstance } from 'fastify';
import fastifyHelmet from '@fastify/helmet';
import type { Config } from '../config.js';
import type { FileStore } from '../modules/files/storage/file-store.js';

const YEAR_SECONDS = 365 * 24 * 60 * 60;

/**
 * The Content-Security-Policy of everything Cairn answers (file content and community logos set
 * stricter ones of their own). Scripts come from this site only: the built app has no inline
 * script, and the pages' data travels in `<script type="application/json">` elements, which are
 * never run. Styles may be inline because Mantine writes its CSS variables and responsive style
 * props into `<style>` elements at run time (and the description editor its own). Nothing may
 * frame a page, and nothing but this site and the bucket that takes uploads may be fetched.
 */
export function contentSecurityPolicy(options: {
  https: boolean;
  /** Origins the deposit form sends file parts to (S3 presigned links). */
  uploadOrigins: readonly string[];
}): Record<string, string[]> {
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'script-src-attr': ["'none'"],
    'style-src': ["'self'", "'unsafe-inline'"],
    // `data:`: the site's icon is an inline SVG in the page shell.
    'img-src': ["'self'", 'data:'],
    'connect-src': ["'self'", ...options.uploadOrigins],
    'frame-ancestors': ["'none'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    ...(options.https ? { 'upgrade-insecure-requests': [] } : {}),
  };
}

/**
 * Security headers on every answer (@fastify/helmet): the policy above, `nosniff`, a referrer
 * policy that sends other sites the origin only, `X-Frame-Options: DENY` for browsers without
 * `frame-ancestors`, and HSTS when the site is served over https (on plain http it would be
 * ignored at best, and would lock out a site that later moves back at worst).
 */
export async function registerSecurityHeaders(
  app: FastifyInstance,
  config: Config,
  store: FileStore,
): Promise<void> {
  const https = config.siteUrl.startsWith('https://');
  const uploadOrigin = await store.uploadOrigin?.();
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: contentSecurityPolicy({
        https,
        uploadOrigins: uploadOrigin ? [uploadOrigin] : [],
      }),
    },
    strictTransportSecurity: https ? { maxAge: YEAR_SECONDS, includeSubDomains: false } : false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    xFrameOptions: { action: 'deny' },
  });
}
