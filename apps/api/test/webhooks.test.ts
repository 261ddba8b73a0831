import { BlockList } from 'node:net';
import { createApiKey } from '@mdq/db';
import { createIndexedDatabase, type IndexedDatabase } from '@mdq/indexer/testing';
import { deliverWebhookBacklog } from '@mdq/worker';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/index';
import { WebhookReceiver } from './support/webhook-receiver';

const SALES = 'listing_sold,token_offer_filled,collection_offer_filled';

/** Webhook endpoints: registration, pause after N failures with the backlog kept, resume, SSRF. */
describe('webhook endpoints', () => {
  let indexed: IndexedDatabase;
  let app: FastifyInstance;
  let key: string;
  const receiver = new WebhookReceiver();
  let hookUrl: string;
  const loopback = new BlockList();
  loopback.addAddress('127.0.0.1');

  const api = async (method: string, path: string, body?: unknown) => {
    const res = await app.inject({
      method: method as 'GET',
      url: `/local/api${path}`,
      headers: { 'x-api-key': key, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { payload: JSON.stringify(body) } : {}),
    });
    return { status: res.statusCode, body: res.body ? res.json() : null };
  };

  beforeAll(async () => {
    indexed = await createIndexedDatabase({ seed: 14, preset: 'tiny' });
    app = await buildApp({ db: indexed.db, network: 'local' });
    key = (await createApiKey(indexed.db, { name: 'hooks' })).key;
    hookUrl = await receiver.start();
  }, 240_000);
  afterAll(async () => {
    await receiver.close();
    await app?.close();
    await indexed?.close();
  });

  it('pauses a failing endpoint after N failures, keeps its backlog, and delivers it all on resume', async () => {
    const created = await api('POST', '/webhooks', { url: hookUrl, since: 'earliest', kinds: SALES });
    expect(created.status).toBe(201);
    const { endpointId, secret } = created.body.data;
    receiver.secret = secret;
    receiver.failing = true;
    const options = { pauseAfter: 2, timeoutMs: 5_000, allowed: loopback };
    await expect(deliverWebhookBacklog(indexed.db, endpointId, options)).rejects.toThrow(/HTTP 503/);
    expect(await deliverWebhookBacklog(indexed.db, endpointId, options)).toEqual({
      delivered: 0,
      paused: true,
    });
    const listed = (await api('GET', '/webhooks')).body.data;
    expect(listed).toMatchObject([{ endpointId, status: 'paused', failures: 2 }]);
    const log = (await api('GET', `/webhooks/${endpointId}/deliveries`)).body.data;
    expect(log.map((d: { ok: boolean; statusCode: number }) => [d.ok, d.statusCode])).toEqual([
      [false, 503],
      [false, 503],
    ]);
    // Paused: nothing is attempted.
    expect(await deliverWebhookBacklog(indexed.db, endpointId, options)).toEqual({
      delivered: 0,
      paused: true,
    });
    expect(receiver.refused).toBe(2);

    receiver.failing = false;
    expect((await api('POST', `/webhooks/${endpointId}/resume`)).body.data.status).toBe('active');
    const result = await deliverWebhookBacklog(indexed.db, endpointId, options);
    expect(result).toEqual({ delivered: indexed.facts.totals.sales, paused: false });
    expect(receiver.acknowledged.length).toBe(indexed.facts.totals.sales);
    const volume = receiver.acknowledged.reduce((sum, e) => sum + BigInt(e.price ?? 0), 0n);
    expect(String(volume)).toBe(indexed.facts.totals.volume);
    expect(receiver.badSignatures).toBe(0);
    // Idempotent: nothing left to deliver.
    expect(await deliverWebhookBacklog(indexed.db, endpointId, options)).toEqual({
      delivered: 0,
      paused: false,
    });
    expect((await api('DELETE', `/webhooks/${endpointId}`)).status).toBe(204);
    expect((await api('GET', `/webhooks/${endpointId}/deliveries`)).status).toBe(404);
  });

  it('refuses private targets through the SSRF guard unless allowed', async () => {
    const created = await api('POST', '/webhooks', { url: hookUrl, since: 'earliest', kinds: SALES });
    const { endpointId } = created.body.data;
    const options = { pauseAfter: 1, timeoutMs: 5_000 };
    expect(await deliverWebhookBacklog(indexed.db, endpointId, options)).toEqual({
      delivered: 0,
      paused: true,
    });
    const log = (await api('GET', `/webhooks/${endpointId}/deliveries`)).body.data;
    expect(log[0].error).toContain('refused: private address');
  });

  it('answers 4xx for a bad registration and 404 for another key’s endpoint', async () => {
    expect((await api('POST', '/webhooks', { url: 'ftp://x' })).status).toBe(400);
    expect((await api('POST', '/webhooks', { url: hookUrl, kinds: 'nope' })).status).toBe(400);
    expect((await api('POST', '/webhooks/wh_nope/pause')).status).toBe(404);
  });

  it("pages this key's endpoints and an endpoint's deliveries as every list", async () => {
    const own = (await createApiKey(indexed.db, { name: 'hooks-paging' })).key;
    const as = async (path: string, method = 'GET', body?: unknown) => {
      const res = await app.inject({
        method: method as 'GET',
        url: `/local/api${path}`,
        headers: { 'x-api-key': own, ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { payload: JSON.stringify(body) } : {}),
      });
      return res.json();
    };
    const ids: string[] = [];
    for (let i = 0; i < 3; i++)
      ids.push((await as('/webhooks', 'POST', { url: `${hookUrl}?n=${i}` })).data.endpointId);
    const first = await as('/webhooks?limit=2');
    expect(first.pagination).toMatchObject({ page: 1, limit: 2, total: 3, hasMore: true });
    const second = await as(`/webhooks?limit=2&cursor=${first.pagination.nextCursor}`);
    expect(second.pagination).toMatchObject({ limit: 2, total: 3, hasMore: false, nextCursor: null });
    expect((await as('/webhooks?limit=2&page=2')).data).toEqual(second.data);
    expect([...first.data, ...second.data].map((e: { endpointId: string }) => e.endpointId)).toEqual(ids);
    expect((await as('/webhooks')).pagination).toMatchObject({ limit: 20, total: 3 });
    const log = await as(`/webhooks/${ids[0]}/deliveries`);
    expect(log.pagination).toMatchObject({ page: 1, limit: 50, total: 0, hasMore: false });
  });
});
