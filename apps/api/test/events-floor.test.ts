import { createApiKey } from '@mdq/db';
import type { FeedEvent } from '@mdq/db/feed';
import type { DevnetFacts } from '@mdq/devnet';
import { fullnodeSource, runIndexer } from '@mdq/indexer';
import { createIndexedDatabase, devnetDecoder, type IndexedDatabase } from '@mdq/indexer/testing';
import { noopNotifier } from '@mdq/jobs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/index';
import { expectChainOrder } from './support/devnet-events';
import { SseConsumer, until } from './support/feed-consumers';

interface FloorChange {
  collectionId: string;
  version: number;
  price: string | null;
}

/**
 * Every (collection, version) after which the collection's floor differs from the floor before,
 * replayed from the devnet's own listing log (each listing's prices and end, in chain order).
 */
function expectedFloorChanges(facts: DevnetFacts): FloorChange[] {
  const steps: { version: number; collectionId: string; listing: number; price: bigint | null }[] = [];
  facts.listings.forEach((l, listing) => {
    for (const p of l.prices)
      steps.push({ version: p.version, collectionId: l.collectionId, listing, price: BigInt(p.price) });
    if (l.end) steps.push({ version: l.end.version, collectionId: l.collectionId, listing, price: null });
  });
  steps.sort((a, b) => a.version - b.version);
  const open = new Map<string, Map<number, bigint>>();
  const floorOf = (id: string) => {
    let min: bigint | null = null;
    for (const p of open.get(id)?.values() ?? []) if (min === null || p < min) min = p;
    return min === null ? null : String(min);
  };
  const changes: FloorChange[] = [];
  for (let i = 0; i < steps.length; i++) {
    const s = steps[i] as (typeof steps)[number];
    const before = floorOf(s.collectionId);
    // Apply every step of this collection at this version, then compare once.
    const group = steps.filter((x) => x.version === s.version && x.collectionId === s.collectionId);
    if (group[0] !== s) continue;
    const listings = open.get(s.collectionId) ?? new Map<number, bigint>();
    open.set(s.collectionId, listings);
    for (const g of group) {
      if (g.price === null) listings.delete(g.listing);
      else listings.set(g.listing, g.price);
    }
    const after = floorOf(s.collectionId);
    if (after !== before) changes.push({ collectionId: s.collectionId, version: s.version, price: after });
  }
  return changes;
}

const shape = (e: FeedEvent): FloorChange => ({
  collectionId: e.collectionId ?? '',
  version: e.version,
  price: e.price,
});

/** `floor_changed` events over SSE against the devnet's listing log, whole and resumed midway. */
describe('floor_changed events', () => {
  let indexed: IndexedDatabase;
  let app: FastifyInstance;
  let base: string;
  let key: string;
  let expected: FloorChange[];

  beforeAll(async () => {
    // Small batches: many floors are carried from one batch's stored listings into the next.
    indexed = await createIndexedDatabase({ seed: 12, preset: 'tiny', batchSize: 37 });
    app = await buildApp({ db: indexed.db, network: 'local', feed: { pollMs: 50 } });
    base = `${await app.listen({ host: '127.0.0.1', port: 0 })}/local/api`;
    key = (await createApiKey(indexed.db, { name: 'floors' })).key;
    expected = expectedFloorChanges(indexed.facts);
  }, 240_000);
  afterAll(async () => {
    await app?.close();
    await indexed?.close();
  });

  it('streams one floor_changed per (collection, version) that moved the floor, in chain order', async () => {
    expect(expected.length).toBeGreaterThan(10);
    const floors = new SseConsumer(key, 'kinds=floor_changed');
    await floors.connect(base, { since: 'earliest' });
    await until('the floor changes', () => floors.got.events.length >= expected.length);
    await floors.disconnect();
    expect(floors.got.events.map(shape)).toEqual(expected);
    expect(floors.got.events.every((e) => e.kind === 'floor_changed')).toBe(true);
    expectChainOrder(floors.got.events, 'floors');
  });

  it('places each after the chain events of its version, and resumes from the middle', async () => {
    const all = new SseConsumer(key);
    await all.connect(base, { since: 'earliest' });
    const floorsIn = () => all.got.events.filter((e) => e.kind === 'floor_changed');
    await until('the whole chain', () => floorsIn().length >= expected.length);
    await all.disconnect();
    expectChainOrder(all.got.events, 'everything');
    const middle = Math.floor(expected.length / 2);
    const floor = floorsIn()[middle] as FeedEvent;
    const at = all.got.events.indexOf(floor);
    // The listing event that moved it is in the same version, earlier in the stream.
    const sameVersion = all.got.events.slice(0, at).filter((e) => e.version === floor.version);
    expect(sameVersion.some((e) => e.kind.startsWith('listing_'))).toBe(true);

    // Resume from the event just before the floor change (it comes again), then from the change.
    const before = all.got.events[at - 1] as FeedEvent;
    for (const [since, want] of [
      [before.id, expected.slice(middle)],
      [floor.id, expected.slice(middle + 1)],
    ] as const) {
      const rest = new SseConsumer(key, 'kinds=floor_changed');
      await rest.connect(base, { since });
      await until('the rest', () => rest.got.events.length >= want.length);
      await rest.disconnect();
      expect(rest.got.events.map(shape), `since ${since}`).toEqual(want);
    }
  });

  it('records nothing again when a range of the chain is ingested a second time', async () => {
    const last = indexed.facts.chain.lastVersion;
    await runIndexer({
      db: indexed.db,
      source: fullnodeSource(indexed.devnet.url),
      decode: devnetDecoder(indexed.devnet),
      notifier: noopNotifier,
      batchSize: 23,
      from: Math.floor(last / 3),
      to: Math.floor((2 * last) / 3),
    });
    const floors = new SseConsumer(key, 'kinds=floor_changed');
    await floors.connect(base, { since: 'earliest' });
    await until('the floor changes', () => floors.got.events.length >= expected.length);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await floors.disconnect();
    expect(floors.got.events.map(shape)).toEqual(expected);
  });
});
