import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './openapi';

export type { components, operations, paths } from './openapi';

export interface MdqClientOptions {
  /** Where the API listens, e.g. `http://127.0.0.1:3000`. */
  baseUrl: string;
  /** The network segment the API serves: `mainnet`, `testnet`, `devnet` or `local`. */
  network: string;
  apiKey: string;
  /** A fetch of your own (tests, proxies, retries); the global one by default. */
  fetch?: typeof globalThis.fetch;
}

export type MdqClient = Client<paths>;

/**
 * A typed client for every mdq endpoint: paths, parameters and response bodies come from the
 * API's OpenAPI document (openapi-typescript), requests from openapi-fetch.
 *
 *   const mdq = createMdqClient({ baseUrl, network: 'mainnet', apiKey });
 *   const { data, error } = await mdq.GET('/api/rankings/trending-collections', { params: { query: { limit: 10 } } });
 */
export function createMdqClient(options: MdqClientOptions): MdqClient {
  const root = options.baseUrl.replace(/\/+$/, '');
  const client = createClient<paths>({
    baseUrl: `${root}/${options.network}`,
    headers: { 'x-api-key': options.apiKey },
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  // Liveness and readiness are served at the root, outside the network: send them there.
  const ops = new Set(OPS_PATHS.map((path) => `${root}/${options.network}${path}`));
  client.use({
    onRequest({ request }) {
      const url = request.url.split('?')[0] ?? '';
      if (!ops.has(url)) return undefined;
      return new Request(request.url.replace(`/${options.network}/`, '/'), request);
    },
  });
  return client;
}

const OPS_PATHS = ['/health', '/ready'] as const;
