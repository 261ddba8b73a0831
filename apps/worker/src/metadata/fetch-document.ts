import { setTimeout as sleep } from 'node:timers/promises';
import { FetchForbiddenError, type SafeFetchOptions, safeFetch } from '../uri/safe-fetch';
import { type GatewayConfig, resolveUri } from '../uri/uri-schemes';
import type { HostGate } from './host-gate';

/** Why a fetch failed, and whether trying again soon can help. */
class DocumentFetchError extends Error {
  override name = 'DocumentFetchError';
  constructor(
    message: string,
    readonly transient: boolean,
  ) {
    super(message);
  }
}

export interface FetchedDocument {
  body: Buffer;
  contentType: string | null;
  /** Where the bytes came from (the gateway URL, the last redirect), or the data: URI itself. */
  url: string;
}

export interface DocumentFetchOptions extends GatewayConfig {
  /** Everything for one document (every gateway, redirect and retry) fits in this. */
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
  /** Transient failures (timeouts, resets, 5xx, 429) are tried again after this, doubling. */
  retryDelayMs: number;
  retries: number;
  fetch: Omit<SafeFetchOptions, 'timeoutMs' | 'deadline' | 'maxBytes' | 'maxRedirects'>;
  gate: HostGate;
}

/**
 * The raw bytes of a token or collection URI: `ipfs://` through each gateway in turn, `ar://`,
 * http(s), or `data:` inline; through the SSRF-safe fetcher (private addresses refused at every hop,
 * size cap, redirect bound) and the per-host gate. One deadline covers the gateways, redirects and
 * retries of the document; the gate's wait is before it starts.
 */
export async function fetchDocument(uri: string, options: DocumentFetchOptions): Promise<FetchedDocument> {
  const resolved = resolveUri(uri, options);
  if (resolved.kind === 'unsupported') throw new DocumentFetchError(resolved.reason, false);
  if (resolved.kind === 'data') {
    if (resolved.body.length > options.maxBytes)
      throw new DocumentFetchError(`data URI larger than ${options.maxBytes} bytes`, false);
    return { body: resolved.body, contentType: resolved.mediaType, url: resolved.uri };
  }
  const first = resolved.candidates[0];
  if (first === undefined) throw new DocumentFetchError('no gateway configured', false);
  return options.gate.run(new URL(first).host, async () => {
    const deadline = Date.now() + options.timeoutMs;
    const fetchOptions: SafeFetchOptions = {
      ...options.fetch,
      timeoutMs: options.timeoutMs,
      deadline,
      maxBytes: options.maxBytes,
      maxRedirects: options.maxRedirects,
    };
    for (let attempt = 0; ; attempt++) {
      let failure: DocumentFetchError = new DocumentFetchError('no gateway answered', true);
      for (const candidate of resolved.candidates) {
        try {
          const response = await safeFetch(candidate, fetchOptions);
          if (response.status >= 200 && response.status < 300) {
            return {
              body: response.body ?? Buffer.alloc(0),
              contentType: response.contentType,
              url: response.finalUrl,
            };
          }
          const transient = response.status >= 500 || response.status === 429;
          failure = new DocumentFetchError(
            `HTTP ${response.status} from ${new URL(candidate).host}`,
            transient,
          );
        } catch (err) {
          failure = classify(err);
        }
      }
      const wait = options.retryDelayMs * 2 ** attempt;
      if (!failure.transient || attempt >= options.retries || Date.now() + wait >= deadline) throw failure;
      await sleep(wait);
    }
  });
}

function classify(err: unknown): DocumentFetchError {
  const message = (err instanceof Error ? err.message : String(err)).slice(0, 300);
  if (err instanceof FetchForbiddenError) return new DocumentFetchError(message, false);
  // Oversize, too many redirects and "no address" are answers, not accidents; timeouts and broken
  // connections may pass.
  const permanent = /larger than|redirects|no address|ENOTFOUND/.test(message);
  return new DocumentFetchError(message, !permanent);
}
