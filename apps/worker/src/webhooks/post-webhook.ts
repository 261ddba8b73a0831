import http from 'node:http';
import https from 'node:https';
import type { BlockList, LookupFunction } from 'node:net';
import type { FeedEvent } from '@mdq/db/feed';
import { pinnedAddress } from '../uri/safe-fetch';
import { signWebhook, WEBHOOK_HEADERS } from './signature';

export interface PostResult {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
}

/**
 * POSTs one event to an endpoint through the URI cache's SSRF guard (host resolved, private
 * addresses refused, connection pinned to the checked address). Redirects are not followed: a
 * 3xx is a failed delivery.
 */
export async function postWebhook(
  url: string,
  secret: string,
  event: FeedEvent,
  options: { timeoutMs: number; allowed?: BlockList; now?: () => number },
): Promise<PostResult> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return { ok: false, statusCode: null, error: `bad url ${url}` };
  }
  let pinned: { address: string; family: number };
  try {
    pinned = await pinnedAddress(target, options.allowed);
  } catch (error) {
    return { ok: false, statusCode: null, error: (error as Error).message };
  }
  const body = JSON.stringify(event);
  const timestamp = Math.floor((options.now?.() ?? Date.now()) / 1000);
  const lookup: LookupFunction = (_host, opts, callback) => {
    if (opts.all) callback(null, [pinned]);
    else callback(null, pinned.address, pinned.family);
  };
  const client = target.protocol === 'https:' ? https : http;
  return new Promise<PostResult>((resolve) => {
    const req = client.request(
      target,
      {
        method: 'POST',
        lookup,
        timeout: options.timeoutMs,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'user-agent': 'mdq-webhooks/1',
          [WEBHOOK_HEADERS.eventId]: event.id,
          [WEBHOOK_HEADERS.timestamp]: String(timestamp),
          [WEBHOOK_HEADERS.signature]: signWebhook(secret, timestamp, body),
        },
      },
      (res) => {
        res.resume();
        const status = res.statusCode ?? 0;
        const ok = status >= 200 && status < 300;
        resolve({ ok, statusCode: status, error: ok ? null : `HTTP ${status}` });
      },
    );
    req.on('timeout', () => req.destroy(new Error(`timed out after ${options.timeoutMs} ms`)));
    req.on('error', (error) => resolve({ ok: false, statusCode: null, error: error.message }));
    req.end(body);
  });
}
