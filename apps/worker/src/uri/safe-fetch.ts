import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import type { BlockList, LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import { isAllowedAddress } from './address-policy';

class FetchRefusedError extends Error {
  override name = 'FetchRefusedError';
}

/** A URL that must never be fetched (private address, other scheme): never stored as usable. */
export class FetchForbiddenError extends FetchRefusedError {
  override name = 'FetchForbiddenError';
}

export interface SafeFetchOptions {
  /** Whole fetch, redirects included. */
  timeoutMs: number;
  /** An absolute deadline (ms since epoch) shared with other fetches of one resolution. */
  deadline?: number;
  maxBytes: number;
  maxRedirects: number;
  allowed?: BlockList;
  /**
   * Origins (`http://127.0.0.1:8090`) fetched even when their host is a private address: the
   * embedded devnet's own server in `mdq start` and tests (MDQ_TRUSTED_ORIGINS). Checked per hop, so
   * a redirect from a trusted origin to any other private address is still refused.
   */
  trustedOrigins?: ReadonlySet<string>;
  userAgent?: string;
  /** Read the body only when this says so (an image needs its headers, not its bytes). */
  wantBody?: (contentType: string | null) => boolean;
}

export interface SafeResponse {
  status: number;
  contentType: string | null;
  finalUrl: string;
  body: Buffer | null;
}

/**
 * GET of an untrusted URL: http(s) only; every hop's host is resolved first and refused when any of
 * its addresses is private, loopback or link-local, and the connection is pinned to the checked
 * address (no second DNS answer can swap it); redirects are followed by hand up to a bound; the body
 * is cut at maxBytes; one deadline covers everything.
 */
export async function safeFetch(url: string, options: SafeFetchOptions): Promise<SafeResponse> {
  const deadline = Math.min(Date.now() + options.timeoutMs, options.deadline ?? Number.POSITIVE_INFINITY);
  let current = new URL(url);
  for (let hop = 0; ; hop++) {
    const response = await fetchOnce(current, options, deadline);
    if (!('location' in response)) return response;
    if (hop >= options.maxRedirects)
      throw new FetchRefusedError(`more than ${options.maxRedirects} redirects`);
    current = new URL(response.location, current);
  }
}

/** Resolves the URL's host and refuses it when any address is private; the answer to pin a connection to. */
export async function pinnedAddress(
  url: URL,
  allowed: BlockList | undefined,
  trustedOrigins?: ReadonlySet<string>,
): Promise<{ address: string; family: number }> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new FetchForbiddenError(`refused scheme ${url.protocol}`);
  }
  const trusted = trustedOrigins?.has(url.origin) ?? false;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const literal = isIP(host);
  const addresses = literal
    ? [{ address: host, family: literal }]
    : await lookup(host, { all: true, verbatim: true });
  if (addresses.length === 0) throw new FetchRefusedError(`no address for ${host}`);
  for (const a of addresses) {
    if (!trusted && !isAllowedAddress(a.address, allowed))
      // Say nothing of the address: a DNS answer for an internal name is itself internal information.
      throw new FetchForbiddenError('refused: private address');
  }
  const first = addresses[0];
  if (!first) throw new FetchRefusedError(`no address for ${host}`);
  return first;
}

type Hop = SafeResponse | { location: string };

async function fetchOnce(url: URL, options: SafeFetchOptions, deadline: number): Promise<Hop> {
  const remaining = deadline - Date.now();
  if (remaining <= 0) throw new FetchRefusedError('timed out');
  const pinned = await withDeadline(pinnedAddress(url, options.allowed, options.trustedOrigins), deadline);
  const pinnedLookup: LookupFunction = (_host, opts, callback) => {
    if (opts.all) callback(null, [pinned]);
    else callback(null, pinned.address, pinned.family);
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<Hop>((resolve, reject) => {
    const timer = setTimeout(() => {
      req.destroy(new FetchRefusedError('timed out'));
    }, deadline - Date.now());
    const done = (fn: () => void) => {
      clearTimeout(timer);
      fn();
    };
    const req = client.get(
      url,
      {
        lookup: pinnedLookup,
        headers: {
          'user-agent': options.userAgent ?? 'mdq-uri-cache/1',
          accept: 'application/json, image/*, */*',
        },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        const location = res.headers.location;
        if (status >= 300 && status < 400 && location) {
          res.resume();
          done(() => resolve({ location }));
          req.destroy();
          return;
        }
        const contentType = res.headers['content-type']?.split(';')[0]?.trim().toLowerCase() || null;
        const finalUrl = url.toString();
        if (status < 200 || status >= 300 || (options.wantBody && !options.wantBody(contentType))) {
          done(() => resolve({ status, contentType, finalUrl, body: null }));
          req.destroy();
          return;
        }
        const declared = Number(res.headers['content-length'] ?? Number.NaN);
        if (declared > options.maxBytes) {
          done(() => reject(new FetchRefusedError(`response larger than ${options.maxBytes} bytes`)));
          req.destroy();
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > options.maxBytes) {
            done(() => reject(new FetchRefusedError(`response larger than ${options.maxBytes} bytes`)));
            req.destroy();
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () =>
          done(() => resolve({ status, contentType, finalUrl, body: Buffer.concat(chunks) })),
        );
        res.on('error', (err) => done(() => reject(err)));
      },
    );
    req.on('error', (err) => done(() => reject(err)));
  });
}

async function withDeadline<T>(promise: Promise<T>, deadline: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new FetchRefusedError('timed out')), Math.max(0, deadline - Date.now()));
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
