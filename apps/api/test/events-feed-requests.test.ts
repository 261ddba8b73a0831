import { createApiKey } from '@mdq/db';
import type { FeedEvent } from '@mdq/db/feed';
import { createIndexedDatabase, type IndexedDatabase } from '@mdq/indexer/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ErrorBody } from '../src/index';
import { buildApp } from '../src/index';
import { SseConsumer, until, WsConsumer } from './support/feed-consumers';

/** Filters, auth, bad input and limits of the event streams, over an ingested devnet chain. */
describe('event stream requests', () => {
  let indexed: IndexedDatabase;
  let app: FastifyInstance;
  let base: string;
  let key: string;

  beforeAll(async () => {
    indexed = await createIndexedDatabase({ seed: 12, preset: 'tiny' });
    app = await buildApp({ db: indexed.db, network: 'local', feed: { pollMs: 50, maxConnectionsPerKey: 2 } });
    base = `${await app.listen({ host: '127.0.0.1', port: 0 })}/local/api`;
    key = (await createApiKey(indexed.db, { name: 'feed' })).key;
  }, 240_000);
  afterAll(async () => {
    await app?.close();
    await indexed?.close();
  });

  const status = async (path: string, headers: Record<string, string> = { 'x-api-key': key }) => {
    const res = await fetch(`${base}${path}`, { headers });
    if (res.headers.get('content-type')?.includes('json'))
      return { status: res.status, body: (await res.json()) as ErrorBody };
    await res.body?.cancel();
    return { status: res.status, body: null as ErrorBody | null };
  };
  const lastVersion = () => indexed.facts.chain.lastVersion;

  it('needs a key, in the header or ?apiKey= (for EventSource)', async () => {
    expect((await status('/events/stream', {})).status).toBe(401);
    expect((await status('/events/stream?apiKey=wrong', {})).body?.code).toBe('INVALID_API_KEY');
    expect((await status(`/events/stream?apiKey=${key}`, {})).status).toBe(200);
    // Only the stream routes read a key from the query string.
    expect((await status(`/whoami?apiKey=${key}`, {})).status).toBe(401);
  });

  it('answers 4xx naming the parameter for a bad resume id, kind, address or collection', async () => {
    const since = await status('/events/stream?since=abc');
    expect(since.status).toBe(400);
    expect(since.body?.message).toContain("'since'");
    const lastId = await status('/events/stream', { 'x-api-key': key, 'last-event-id': '1-2' });
    expect(lastId.body?.message).toContain("'Last-Event-ID'");
    const kinds = await status('/events/stream?kinds=listing_sold,nope');
    expect(kinds.status).toBe(400);
    expect(kinds.body?.message).toContain('nope');
    expect((await status('/events/stream?wallet=0xzz')).status).toBe(400);
    expect((await status('/events/stream?creator=0x1')).status).toBe(400);
    const missing = await status('/events/stream?creator=0x1&collection=none');
    expect(missing.status).toBe(404);
    expect((await status('/events/ws')).body?.code).toBe('WEBSOCKET_REQUIRED');
  });

  it('filters by kinds: the sales of the chain, as the facts count them', async () => {
    const sales = new SseConsumer(key, 'kinds=listing_sold,token_offer_filled,collection_offer_filled');
    await sales.connect(base, { since: 'earliest' });
    await until('sales', () => sales.got.events.length >= indexed.facts.totals.sales);
    await sales.disconnect();
    expect(sales.got.events.length).toBe(indexed.facts.totals.sales);
    const volume = sales.got.events.reduce((sum, e) => sum + BigInt(e.price ?? 0), 0n);
    expect(String(volume)).toBe(indexed.facts.totals.volume);
  });

  it('filters by collection (creator + name) and by wallet', async () => {
    const c = indexed.facts.collections.find((x) => x.sales.all > 0);
    if (!c) throw new Error('facts have no collection with sales');
    const byName = new WsConsumer(
      key,
      `creator=${c.creator}&collection=${encodeURIComponent(c.name)}&kinds=listing_sold,token_offer_filled,collection_offer_filled`,
    );
    await byName.connect(base, { since: 'earliest' });
    await until('collection sales', () => byName.got.events.length >= c.sales.all);
    await byName.disconnect();
    expect(byName.got.events.length).toBe(c.sales.all);
    expect(new Set(byName.got.events.map((e) => e.collectionId))).toEqual(new Set([c.collectionId]));

    const user = indexed.facts.users.find((u) => u.tokensHeld > 0);
    if (!user) throw new Error('facts have no holder');
    const wallet = new SseConsumer(key, `wallet=${user.address}`);
    await wallet.connect(base, { since: 'earliest' });
    await until('wallet history', async () => (wallet.got.events.at(-1)?.version ?? -1) >= 0);
    // Everything the wallet took part in; each event names it in one of the four roles.
    const named = (e: FeedEvent) => [e.buyer, e.seller, e.from, e.to].includes(user.address);
    await until('wallet events settle', () => wallet.got.events.length > 0);
    await wallet.disconnect();
    expect(wallet.got.events.every(named)).toBe(true);
    expect(wallet.got.events.at(-1)?.version ?? 0).toBeLessThanOrEqual(lastVersion());
  });

  it('limits open streams per key with a clear 429', async () => {
    const a = new SseConsumer(key);
    const b = new WsConsumer(key);
    await a.connect(base);
    await b.connect(base);
    const third = await status('/events/stream');
    expect(third.status).toBe(429);
    expect(third.body?.code).toBe('TOO_MANY_STREAMS');
    expect(third.body?.message).toContain('limit 2');
    await a.disconnect();
    await until(
      'slot released',
      async () => (await status('/events/stream?since=earliest&kinds=burn')).status === 200,
    );
    await b.disconnect();
  });
});
