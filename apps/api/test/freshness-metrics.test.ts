import { createApiKey, recordChainTip } from '@mdq/db';
import { createTestDatabase, type TestDatabase } from '@mdq/db/testing';
import { type DevnetServer, startDevnetServer } from '@mdq/devnet';
import { fullnodeSource, runIndexer, type TipWatcher, watchChainTip } from '@mdq/indexer';
import { devnetDecoder } from '@mdq/indexer/testing';
import { noopNotifier } from '@mdq/jobs';
import { observeIndexerBatch } from '@mdq/telemetry';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/index';

/*
 * Freshness as a front end and an operator see it: the headers on every keyed answer, /ready's lag
 * against the tip the indexer saw, and /metrics. The truth is the devnet's own REST answers (its
 * ledger version and each version's block time), never mdq's tables.
 */
describe('freshness headers, readiness lag and metrics', () => {
  let devnet: DevnetServer;
  let test: TestDatabase;
  let app: FastifyInstance;
  let key: string;
  let watcher: TipWatcher | null = null;
  let ledgerVersion: number;

  const chain = async <T>(path: string): Promise<T> => (await fetch(`${devnet.url}${path}`)).json() as T;
  const blockTime = async (version: number) => {
    const tx = await chain<{ timestamp: string }>(`/transactions/by_version/${version}`);
    return new Date(Number(BigInt(tx.timestamp) / 1000n)).toISOString();
  };
  const index = async (to: number) => {
    await runIndexer({
      db: test.db,
      source: fullnodeSource(devnet.url),
      decode: devnetDecoder(devnet),
      notifier: noopNotifier,
      batchSize: 200,
      to,
      onBatch: observeIndexerBatch,
    });
  };
  const keyed = () =>
    app.inject({ url: '/local/api/rankings/trending-collections', headers: { 'x-api-key': key } });
  /** Polls until `check` passes: the freshness read is cached for a fraction of a second. */
  const eventually = async (check: () => Promise<void>) => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      try {
        return await check();
      } catch (error) {
        if (Date.now() > deadline) throw error;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  };

  beforeAll(async () => {
    // A still chain (no new blocks) ending at the devnet's fixed epoch, long in the past.
    devnet = await startDevnetServer({ port: 0, seed: 5, preset: 'tiny', blockIntervalMs: 0 });
    ledgerVersion = Number((await chain<{ ledger_version: string }>('')).ledger_version);
    test = await createTestDatabase();
    app = await buildApp({ db: test.db, network: 'local', readyMaxLagSeconds: 600 });
    key = (await createApiKey(test.db, { name: 'fresh' })).key;
  }, 120_000);
  afterAll(async () => {
    await watcher?.stop();
    await app?.close();
    await test?.drop();
    await devnet?.close();
  });

  it('leaves the headers out before the first batch, and /ready has no lag to report', async () => {
    const res = await keyed();
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-mdq-indexed-version']).toBeUndefined();
    const ready = await app.inject('/ready');
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toMatchObject({ status: 'ready', indexedVersion: null, lagVersions: null });
  });

  it('names the indexed version and its block time, and follows the indexer as it advances', async () => {
    const first = Math.floor(ledgerVersion / 3);
    await index(first);
    await eventually(async () => {
      const res = await keyed();
      expect(res.headers['x-mdq-indexed-version']).toBe(String(first));
      expect(res.headers['x-mdq-indexed-at']).toBe(await blockTime(first));
    });
    const second = Math.floor((2 * ledgerVersion) / 3);
    await index(second);
    await eventually(async () => {
      const res = await keyed();
      expect(res.headers['x-mdq-indexed-version']).toBe(String(second));
      expect(res.headers['x-mdq-indexed-at']).toBe(await blockTime(second));
    });
    // Every keyed route carries them, errors included; unkeyed ops routes do not need them.
    const missing = await app.inject({
      url: '/local/market/listing-card?tokenId=zz',
      headers: { 'x-api-key': key },
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.headers['x-mdq-indexed-version']).toBe(String(second));
  });

  it('/ready never shows a tip below the indexed version (a tip reading older than the index)', async () => {
    // The indexer saw the tip at `first`, then read on to `second`: the chain is at least there.
    const first = Math.floor(ledgerVersion / 3);
    const indexed = Math.floor((2 * ledgerVersion) / 3);
    await recordChainTip(test.db, first);
    await eventually(async () => {
      const ready = (await app.inject('/ready')).json();
      expect(ready).toMatchObject({ indexedVersion: indexed, tipVersion: indexed, lagVersions: 0 });
    });
  });

  it('/ready turns 503 while the index is far behind the tip, and 200 once caught up', async () => {
    watcher = watchChainTip(test.db, fullnodeSource(devnet.url), 200);
    const behind = Math.floor((2 * ledgerVersion) / 3);
    await eventually(async () => {
      const ready = await app.inject('/ready');
      expect(ready.json()).toMatchObject({ tipVersion: ledgerVersion });
      // The chain's last indexed block is from the devnet's fixed epoch: far more than 600 s ago.
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toMatchObject({
        status: 'lagging',
        database: true,
        indexedVersion: behind,
        lagVersions: ledgerVersion - behind,
        maxLagSeconds: 600,
      });
      expect(ready.json().lagSeconds).toBeGreaterThan(600);
    });
    await index(ledgerVersion);
    await eventually(async () => {
      const ready = await app.inject('/ready');
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toMatchObject({
        status: 'ready',
        indexedVersion: ledgerVersion,
        tipVersion: ledgerVersion,
        lagVersions: 0,
        lagSeconds: 0,
      });
    });
  });

  it('/metrics exposes request, pool and chain-lag families with the values above', async () => {
    await keyed();
    const res = await app.inject('/metrics');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/plain');
    const body = res.body;
    const sample = (line: RegExp) => {
      const found = body.split('\n').find((l) => line.test(l));
      expect(found, `no sample matching ${line}`).toBeDefined();
      return Number(found?.split(' ').at(-1));
    };
    expect(
      sample(
        /^mdq_http_requests_total\{method="GET",route="\/local\/api\/rankings\/trending-collections",status="200"\}/,
      ),
    ).toBeGreaterThanOrEqual(4);
    expect(
      sample(
        /^mdq_http_request_duration_seconds_count\{method="GET",route="\/local\/api\/rankings\/trending-collections",status="200"\}/,
      ),
    ).toBeGreaterThanOrEqual(4);
    expect(
      sample(/^mdq_http_requests_total\{method="GET",route="\/ready",status="503"\}/),
    ).toBeGreaterThanOrEqual(1);
    // Every answer of the route waited for its read state, if only for a reading already heard.
    expect(
      sample(
        /^mdq_api_read_state_wait_seconds_count\{route="\/local\/api\/rankings\/trending-collections"\}/,
      ),
    ).toBeGreaterThanOrEqual(4);
    expect(sample(/^mdq_indexer_indexed_version /)).toBe(ledgerVersion);
    expect(sample(/^mdq_chain_tip_version /)).toBe(ledgerVersion);
    expect(sample(/^mdq_indexer_lag_versions /)).toBe(0);
    expect(sample(/^mdq_db_pool_connections\{pool="mdq",state="total"\}/)).toBeGreaterThanOrEqual(1);
    expect(sample(/^mdq_process_resident_memory_bytes /)).toBeGreaterThan(0);
    // Three ranged runs, each from version 0 (a range has its own checkpoint): to L/3, 2L/3 and L.
    const runs = [Math.floor(ledgerVersion / 3), Math.floor((2 * ledgerVersion) / 3), ledgerVersion];
    expect(sample(/^mdq_indexer_transactions_total /)).toBe(runs.reduce((sum, to) => sum + to + 1, 0));
    expect(sample(/^mdq_indexer_rows_written_total /)).toBeGreaterThan(ledgerVersion);
    expect(sample(/^mdq_indexer_batch_duration_seconds_count /)).toBeGreaterThanOrEqual(3);
  });
});
