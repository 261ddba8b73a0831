import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

/**
 * `@fastify/helmet` on the pages mdq serves as HTML (the /docs page, the queue dashboard), never on
 * the JSON routes: helmet's Cross-Origin-Resource-Policy there would stop a marketplace page from
 * showing /media thumbnails. One content security policy both pages work under (checked in
 * Chromium, test/security-headers-browser.test.ts):
 * - scripts from the API's own origin only: Swagger UI and bull-board load theirs as files and
 *   run no inline script (bull-board's inline `application/json` config block is data, not code);
 * - inline styles allowed: bull-board's loading screen and both UIs set style attributes;
 *   bull-board asks Google Fonts for its typeface (it falls back to a system font without it);
 * - requests (Swagger UI's "Try it out", bull-board's polling) to the API's own origin only;
 * - no `upgrade-insecure-requests`: mdq is often reached over plain HTTP on a private network
 *   (TLS at a proxy), and the directive would send a plain-HTTP page's assets to a port with no TLS.
 */
const CONTENT_SECURITY_POLICY = {
  useDefaults: false,
  directives: {
    'default-src': ["'self'"],
    'base-uri': ["'self'"],
    'script-src': ["'self'"],
    'script-src-attr': ["'none'"],
    'style-src': ["'self'", "'unsafe-inline'", 'https://fonts.googleapis.com'],
    'font-src': ["'self'", 'data:', 'https://fonts.gstatic.com'],
    'img-src': ["'self'", 'data:'],
    'connect-src': ["'self'"],
    'object-src': ["'none'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
  },
};

/** Security headers on every route of the scope it is registered in (an HTML page's scope). */
export async function registerSecurityHeaders(scope: FastifyInstance): Promise<void> {
  await scope.register(helmet, {
    contentSecurityPolicy: CONTENT_SECURITY_POLICY,
    // The pages' own assets are same-origin; nothing else should embed them.
    crossOriginResourcePolicy: { policy: 'same-origin' },
    hsts: false,
  });
}
