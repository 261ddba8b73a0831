import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApiKey, sql } from '@mdq/db';
import { createIndexedDatabase, type IndexedDatabase } from '@mdq/indexer/testing';
import { createMediaRenderer, recomputeAll } from '@mdq/worker';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { buildApp } from '../src/index';

/*
 * The contract: every operation of the served OpenAPI document (/docs/json), called over HTTP with
 * real values (ids taken from earlier answers) on an indexed devnet chain, answers a status the
 * document lists for it, in a content type it lists for that status, with a body its schema (the
 * document's own, compiled with Ajv) accepts; a route with a documented 304 answers 304 to its own
 * ETag. An operation of the document that no call exercised fails the test, so a new route is
 * checked by construction.
 */

type Method = 'get' | 'post' | 'delete';
interface Operation {
  responses: Record<string, { content?: Record<string, { schema: object }> }>;
  /** `[]`: no key needed; absent: the document's default (the API key). */
  security?: unknown[];
}
interface Document {
  paths: Record<string, Partial<Record<Method, Operation>>>;
}
interface Call {
  params?: Record<string, string | number>;
  query?: Record<string, string | number | boolean>;
  body?: unknown;
  /** The status the call is made to get (a 2xx). */
  expect?: number;
}
// biome-ignore lint/suspicious/noExplicitAny: answers are read by field, after schema validation.
type Json = any;

const NETWORK = 'local';

describe('the served OpenAPI document is what a client meets', () => {
  let indexed: IndexedDatabase;
  let app: FastifyInstance;
  let base: string;
  let key: string;
  let doc: Document;
  let origin: Server;
  let cacheDir: string;
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addFormat('binary', true);
  const validators = new Map<object, ValidateFunction>();
  const exercised = new Set<string>();

  /** Checks one answer against the document; the parsed JSON body when it has one. */
  const conforms = async (label: string, operation: Operation, res: Response): Promise<Json> => {
    const documented = operation.responses[String(res.status)];
    const raw = Buffer.from(await res.arrayBuffer());
    expect(
      documented,
      `${label}: status ${res.status} is not in the document (${raw.toString().slice(0, 300)})`,
    ).toBeDefined();
    if (!documented?.content) {
      expect(raw.length, `${label}: ${res.status} has no documented body`).toBe(0);
      return null;
    }
    const mediaType = (res.headers.get('content-type') ?? '').split(';')[0]?.trim() ?? '';
    const content = documented.content[mediaType];
    expect(
      content,
      `${label}: ${res.status} ${mediaType} is not among ${Object.keys(documented.content).join(', ')}`,
    ).toBeDefined();
    if (!content) return null;
    const json = mediaType === 'application/json';
    const body: unknown = json
      ? JSON.parse(raw.toString('utf8'))
      : raw.toString(mediaType.startsWith('image/') ? 'latin1' : 'utf8');
    validate(label, content.schema, body);
    return body;
  };
  const validate = (label: string, schema: object, value: unknown) => {
    let check = validators.get(schema);
    if (!check) {
      check = ajv.compile(schema);
      validators.set(schema, check);
    }
    expect(check(value) ? [] : check.errors, label).toEqual([]);
  };

  /** Calls one operation of the document (its path as the document writes it) and checks the answer. */
  const call = async (method: Method, path: string, c: Call = {}): Promise<Json> => {
    const operation = doc.paths[path]?.[method];
    if (!operation) throw new Error(`${method.toUpperCase()} ${path} is not in the document`);
    const label = `${method.toUpperCase()} ${path}`;
    exercised.add(label);
    const url = new URL(
      path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(c.params?.[name]))),
      base,
    );
    for (const [name, value] of Object.entries(c.query ?? {})) url.searchParams.set(name, String(value));
    // An operation the document marks `security: []` is called without a key; any other answers
    // a call without one with its documented 401.
    const open = operation.security?.length === 0;
    const headers: Record<string, string> = open ? {} : { 'x-api-key': key };
    if (c.body !== undefined) headers['content-type'] = 'application/json';
    const send = (h: Record<string, string>) =>
      fetch(url, {
        method: method.toUpperCase(),
        headers: h,
        ...(c.body === undefined ? {} : { body: JSON.stringify(c.body) }),
      });
    if (!open) {
      const { 'x-api-key': _key, ...keyless } = headers;
      const refused = await send(keyless);
      expect(refused.status, `${label} without a key`).toBe(401);
      await conforms(`${label} (401)`, operation, refused);
    }
    const res = await send(headers);
    expect(res.status, `${label} ${url.search}`).toBe(c.expect ?? 200);
    const etag = res.headers.get('etag');
    const body = await conforms(label, operation, res);
    // A documented 304: the answer's own ETag revalidates it.
    if (operation.responses['304']) {
      expect(etag, `${label}: a documented 304 needs an ETag`).toBeTruthy();
      const again = await fetch(url, { headers: { ...headers, 'if-none-match': etag ?? '' } });
      expect(again.status, `${label} with If-None-Match`).toBe(304);
      await conforms(`${label} (304)`, operation, again);
    }
    return body;
  };

  beforeAll(async () => {
    indexed = await createIndexedDatabase({ seed: 23, preset: 'tiny', endTimeMs: Date.now() });
    const chainNow = new Date(Number(BigInt(indexed.facts.chain.nowUs) / 1000n));
    await recomputeAll(indexed.db, chainNow);
    // The chain's token URIs name a host that does not exist here: one token's image is served locally.
    const png = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#39c' } })
      .png()
      .toBuffer();
    origin = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(png);
    });
    await new Promise<void>((resolve) => origin.listen(0, '127.0.0.1', resolve));
    cacheDir = await mkdtemp(join(tmpdir(), 'mdq-contract-'));
    const media = await createMediaRenderer({
      db: indexed.db,
      cacheDir,
      cacheBytes: 10 << 20,
      ipfsGateways: [],
      arweaveGateway: 'https://arweave.net/',
      allowPrivateAddresses: ['127.0.0.1'],
    });
    app = await buildApp({ db: indexed.db, network: NETWORK, clock: () => chainNow, media });
    base = await app.listen({ host: '127.0.0.1', port: 0 });
    key = (await createApiKey(indexed.db, { name: 'contract' })).key;
    const res = await fetch(`${base}/docs/json`);
    expect(res.status).toBe(200);
    doc = (await res.json()) as Document;
    await sql`UPDATE tokens SET token_uri = ${`http://127.0.0.1:${(origin.address() as AddressInfo).port}/image.png`}
               WHERE token_data_id = (SELECT min(token_data_id) FROM tokens WHERE NOT is_burned)`.execute(
      indexed.db,
    );
  }, 240_000);
  afterAll(async () => {
    await app?.close();
    origin?.close();
    await indexed?.close();
    if (cacheDir) await rm(cacheDir, { recursive: true, force: true });
  });

  it('every operation answers as documented, and every operation is exercised', async () => {
    const api = (route: string) => `/${NETWORK}/api${route}`;
    await call('get', '/health');
    await call('get', '/ready');

    // Seeds from the answers themselves: a listed token, its collection, its seller; a lootbox.
    const cards = await call('get', api('/market/listing-cards'), { query: { limit: 5 } });
    const card = cards.data[0];
    expect(card, 'the chain has an active listing').toBeDefined();
    const pair = { creator: card.creator, collection: card.collection };
    const recent = await call('get', api('/rankings/recent-added'));
    const lootbox = recent.data[0];
    expect(lootbox, 'the chain has a lootbox').toBeDefined();
    const lootboxPair = { creator: lootbox.creator, collection: lootbox.collection };

    await call('get', api('/market/total-listing-cards'), { query: { collectionName: card.collection } });
    const tokens = await call('get', api('/tokens-by-collection'), { query: { ...pair, limit: 3 } });
    await call('get', api('/tokens-by-collection'), {
      query: { ...pair, limit: 3, cursor: tokens.pagination.nextCursor },
    });
    const balances = await call('get', api('/token-balances'), {
      query: { address: card.seller, serviceInfo: true },
    });
    expect(balances.data.some((b: Json) => b.tokenId === card.tokenId && b.listed)).toBe(true);
    await call('get', api('/tokens-by-lootbox'), { query: { lootboxId: lootbox.lootboxId } });
    await call('get', api('/tokens-by-lootbox-creator'), { query: lootboxPair });
    await call('get', api('/token-collection-by-lootbox-creator'), { query: lootboxPair });
    await call('get', api('/token/activity'), { query: { ...pair, tokenName: card.tokenName } });
    await call('get', api('/token/traits'), {
      query: { ...pair, tokenName: card.tokenName, tokenStandard: card.tokenStandard },
    });
    await call('get', api('/market/token-history-by-tokenId'), { query: { tokenId: card.tokenId } });
    await call('get', api('/market/listing-card'), {
      query: { tokenId: card.tokenId, tokenStandard: card.tokenStandard },
    });
    await call('get', api('/market/listings-by-collection'), { query: pair });
    const bids = await call('get', api('/market/bids-by-collection'), { query: pair });
    await call('get', api('/market/search'), { query: { text: card.collection } });
    const wallet = card.seller;
    await call('get', api('/market/user-activity'), { query: { address: wallet } });
    await call('get', api('/market/user-listings'), { query: { address: wallet } });
    await call('get', api('/market/user-bids'), { query: { address: bids.data[0]?.bidder ?? wallet } });
    await call('get', api('/market/user-history'), { query: { address: wallet } });
    await call('get', api('/user/inventory-history-data'), { query: { address: wallet, range: '7d' } });
    await call('get', api('/lootbox'), { query: lootboxPair });
    await call('get', api('/lootbox-revenue'), { query: { ...lootboxPair, timeframe: 'all' } });
    await call('get', api('/rarities-by-lootbox'), { query: { lootboxId: lootbox.lootboxId } });
    await call('get', api('/rarities-by-collection'), { query: pair });
    for (const ranking of ['trending-collections', 'daily-picks', 'top-collections', 'by-upcoming'])
      await call('get', api(`/rankings/${ranking}`), { query: { limit: 1 } });
    await call('get', api('/process-collection-uri-cache'), {
      query: { collectionName: card.collection, creatorAddress: card.creator },
    });
    await call('post', api('/process-collection-uri-cache'), {
      body: { collectionName: card.collection, creatorAddress: card.creator },
    });
    await call('post', api('/validate-metadata'), {
      query: { kind: 'token' },
      body: {
        name: card.tokenName,
        image: 'ipfs://bafy/1.png',
        attributes: [{ trait_type: 'A', value: 'b' }],
      },
    });
    await call('post', api('/refresh-metadata'), { body: { tokenId: card.tokenId }, expect: 202 });
    await call('post', api('/refresh-metadata'), { body: { collectionId: card.collectionId }, expect: 202 });
    for (const format of ['ndjson', 'csv'])
      await call('get', api('/export/{dataset}'), {
        params: { dataset: 'tokens' },
        query: { collectionId: card.collectionId, format, limit: 5 },
      });
    const collectionId = card.collectionId;
    await call('get', api('/collection-stats'), { query: { collectionId, window: '7d' } });
    await call('get', api('/collection-history'), { query: { collectionId, interval: '1d' } });
    await call('get', api('/collection-trait-floors'), { query: { collectionId } });
    await call('get', api('/collection-top-traders'), { query: { collectionId } });

    const [imaged] = (
      await sql<{
        id: string;
      }>`SELECT token_data_id AS id FROM tokens WHERE token_uri LIKE 'http://127.0.0.1:%'`.execute(indexed.db)
    ).rows;
    await call('get', api('/media/{id}'), {
      params: { id: imaged?.id ?? '' },
      query: { w: 64, format: 'png' },
    });

    const hook = await call('post', api('/webhooks'), {
      body: { url: 'https://hooks.example.com/mdq', kinds: 'listing_sold' },
      expect: 201,
    });
    const endpointId = hook.data.endpointId;
    await call('get', api('/webhooks'));
    await call('get', api('/webhooks/{endpointId}/deliveries'), { params: { endpointId } });
    await call('post', api('/webhooks/{endpointId}/pause'), { params: { endpointId } });
    await call('post', api('/webhooks/{endpointId}/resume'), { params: { endpointId } });
    await call('delete', api('/webhooks/{endpointId}'), { params: { endpointId }, expect: 204 });

    await firstStreamEvent(api('/events/stream'));
    await firstSocketEvent(api('/events/ws'));

    const documented = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(documented.filter((op) => !exercised.has(op))).toEqual([]);
    expect(exercised.size).toBe(documented.length);
  }, 120_000);

  /** The SSE stream from the earliest event: 200, text/event-stream, and its first event as documented. */
  async function firstStreamEvent(path: string) {
    const operation = doc.paths[path]?.get as Operation;
    exercised.add(`GET ${path}`);
    const abort = new AbortController();
    const res = await fetch(`${base}${path}?since=earliest`, {
      headers: { 'x-api-key': key },
      signal: abort.signal,
    });
    expect(res.status).toBe(200);
    const type = (res.headers.get('content-type') ?? '').split(';')[0] ?? '';
    const content = operation.responses['200']?.content?.[type];
    expect(content, `GET ${path}: ${type} is not documented`).toBeDefined();
    const reader = (res.body as ReadableStream<Uint8Array>).pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    while (!/^data: .*\n/m.test(buffer)) {
      const { value, done } = await reader.read();
      if (done) throw new Error('the stream ended before its first event');
      buffer += value;
    }
    abort.abort();
    const data = /^data: (.*)$/m.exec(buffer)?.[1] ?? '';
    validate(`GET ${path} event`, content?.schema ?? {}, JSON.parse(data));
  }

  /** The WebSocket feed: the documented 101, then its first message as documented. */
  async function firstSocketEvent(path: string) {
    const operation = doc.paths[path]?.get as Operation;
    exercised.add(`GET ${path}`);
    const upgraded = operation.responses['101']?.content?.['application/json'];
    expect(upgraded, `GET ${path}: no documented 101`).toBeDefined();
    const socket = new WebSocket(`${base.replace(/^http/, 'ws')}${path}?since=earliest`, {
      headers: { 'x-api-key': key },
    });
    const message = await new Promise<string>((resolve, reject) => {
      socket.once('upgrade', (res) => expect(res.statusCode).toBe(101));
      socket.once('message', (data) => resolve(String(data)));
      socket.once('error', reject);
      socket.once('unexpected-response', (_req, res) => reject(new Error(`WS upgrade: ${res.statusCode}`)));
    });
    socket.terminate();
    validate(`GET ${path} message`, upgraded?.schema ?? {}, JSON.parse(message));
  }
});
