import type { TransactionResponse } from '@aptos-labs/ts-sdk';
import { readCheckpoint } from '@mdq/db';
import { createTestDatabase, type TestDatabase } from '@mdq/db/testing';
import { noopNotifier } from '@mdq/jobs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ChainSource, createDecoder, fullnodeSource, GapError, runIndexer } from '../src/index';
import { createIndexedDatabase, type IndexedDatabase } from '../src/testing';
import { stateFingerprint } from './support/db-hash';

/*
 * Sources that misbehave the way real fullnodes and proxies do: pages that start later than asked
 * (a gap), bodies the SDK cannot read (the `byteLength` TypeError of a truncated response), and
 * failing calls. The indexer must end with the database of a clean run, or stop naming the gap.
 */

/** Deterministic: a fault plan must not depend on timing. */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

interface Faults {
  gaps: number;
  truncated: number;
  failed: number;
}

function faultySource(inner: ChainSource, seed: number, faults: Faults): ChainSource {
  const random = prng(seed);
  let calls = 0;
  return {
    tip: () => inner.tip(),
    async fetch(start, limit) {
      calls += 1;
      const roll = random();
      // An outage first: 12 unreadable answers in a row (the old follower gave up after 8).
      if (calls <= 12 || roll < 0.15) {
        faults.truncated += 1;
        throw new TypeError("Cannot read properties of undefined (reading 'byteLength')");
      }
      if (roll < 0.3) {
        faults.failed += 1;
        throw Object.assign(new Error('Request failed with status 500'), { status: 500 });
      }
      const page = await inner.fetch(start, limit);
      if (roll < 0.5 && page.length > 3) {
        faults.gaps += 1;
        // A page that starts later than asked for: the first versions silently missing.
        return page.slice(1 + Math.floor(random() * 3));
      }
      return page;
    },
  };
}

describe('an indexer reading a faulty source', () => {
  let clean: IndexedDatabase;
  const decoderFor = (indexed: IndexedDatabase) =>
    createDecoder({
      marketplaceAddress: indexed.devnet.chain?.config.marketplaceAddress ?? '',
      lootboxAddress: indexed.devnet.chain?.config.lootboxAddress ?? '',
    });
  const extra: TestDatabase[] = [];
  beforeAll(async () => {
    clean = await createIndexedDatabase({ seed: 7, preset: 'tiny', batchSize: 50 });
  }, 120_000);
  afterAll(async () => {
    for (const test of extra) await test.drop();
    await clean?.close();
  });

  it('retries gapped, unreadable and failing pages until the database equals a clean run', async () => {
    const test = await createTestDatabase();
    extra.push(test);
    const faults: Faults = { gaps: 0, truncated: 0, failed: 0 };
    const stats = await runIndexer({
      db: test.db,
      source: faultySource(fullnodeSource(clean.devnet.url), 42, faults),
      decode: decoderFor(clean),
      notifier: noopNotifier,
      batchSize: 50,
      untilCaughtUp: true,
      maxBackoffMs: 20,
      // A gap is refetched; with 20% gapped pages a page may come back gapped several times in a row.
      gapRetries: 50,
    });
    expect(faults.gaps).toBeGreaterThan(0);
    expect(faults.truncated).toBeGreaterThan(12);
    expect(faults.failed).toBeGreaterThan(0);
    expect(stats.lastVersion).toBe(clean.stats.lastVersion);
    expect(await stateFingerprint(test.db)).toEqual(await stateFingerprint(clean.db));
  });

  it('stops with an error naming the gap when the source insists on it, and writes nothing past it', async () => {
    const test = await createTestDatabase();
    extra.push(test);
    const inner = fullnodeSource(clean.devnet.url);
    const missing = (tx: TransactionResponse) => {
      const v = 'version' in tx ? Number(tx.version) : -1;
      return v >= 120 && v <= 139;
    };
    const holed: ChainSource = {
      tip: () => inner.tip(),
      fetch: async (start, limit) => (await inner.fetch(start, limit)).filter((tx) => !missing(tx)),
    };
    const run = runIndexer({
      db: test.db,
      source: holed,
      decode: decoderFor(clean),
      notifier: noopNotifier,
      batchSize: 50,
      untilCaughtUp: true,
      maxBackoffMs: 20,
      gapRetries: 2,
    });
    await expect(run).rejects.toThrow(GapError);
    await expect(run).rejects.toThrow('expected version 120, got 140 (versions 120..139 missing)');
    // Batches before the hole are committed; the page holding it never is.
    const checkpoint = await readCheckpoint(test.db, 'main');
    expect(checkpoint).not.toBeNull();
    expect(checkpoint).toBeLessThan(120);
  });
});
