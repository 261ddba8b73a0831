import { type FeedEvent, MARKET_KINDS as STORED_MARKET_KINDS } from '@mdq/db/feed';
import { type DevnetChain, simulate } from '@mdq/devnet';
import { expect } from 'vitest';

/** A market or lootbox event as the devnet's simulator decided it, independent of mdq's code. */
interface PlannedEvent {
  version: number;
  kind: string;
  price: string | null;
}

/**
 * The feed kinds the simulator's plans imply, version by version, for versions 0..lastVersion:
 * the devnet's own account of what happened, read from its plans (not from the indexer or DB).
 * Token kinds (mint, transfer, burn) are counted separately: how many transfer events a market
 * action emits depends on the token standard's escrow mechanics.
 */
export function plannedEvents(chain: DevnetChain, lastVersion: number) {
  const market: PlannedEvent[] = [];
  /** Each version after which a collection's lowest open listing differs from the one before. */
  const floors: { version: number; price: string | null }[] = [];
  const open = new Map<number, Map<number, number>>();
  const moveFloor = (
    collection: number,
    version: number,
    change: (listings: Map<number, number>) => void,
  ) => {
    const listings = open.get(collection) ?? new Map<number, number>();
    open.set(collection, listings);
    const lowest = () => (listings.size === 0 ? null : String(Math.min(...listings.values())));
    const before = lowest();
    change(listings);
    if (lowest() !== before) floors.push({ version, price: lowest() });
  };
  let mints = 0;
  let burns = 0;
  /** The last version whose plan emits any feed event: consumers are complete once they reach it. */
  let lastEventVersion = -1;
  const { timeline } = chain.world;
  simulate(chain.world, timeline.stepsThrough(lastVersion), {
    after(sim, plan, step) {
      const version = timeline.versionOfStep(step);
      if (!['create_collection', 'create_lootbox', 'update_lootbox'].includes(plan.kind))
        lastEventVersion = version;
      const add = (kind: string, price: number | null = null) =>
        market.push({ version, kind, price: price === null ? null : String(price) });
      switch (plan.kind) {
        case 'list':
        case 'relist':
          moveFloor(sim.ctx.state.tokColl[plan.token] ?? -1, version, (l) =>
            l.set(plan.listingId, plan.price),
          );
          return add('listing_placed', plan.price);
        case 'cancel_listing':
          moveFloor(sim.ctx.state.tokColl[plan.token] ?? -1, version, (l) => l.delete(plan.listingId));
          return add('listing_cancelled', plan.price);
        case 'fill_listing':
          moveFloor(sim.ctx.state.tokColl[plan.token] ?? -1, version, (l) => l.delete(plan.listingId));
          return add('listing_sold', plan.price);
        case 'place_token_offer':
          return add('token_offer_placed', plan.offer.price);
        case 'cancel_token_offer':
          return add('token_offer_cancelled', plan.offer.price);
        case 'fill_token_offer':
          return add('token_offer_filled', plan.offer.price);
        case 'place_collection_offer':
          return add('collection_offer_placed', plan.offer.price);
        case 'cancel_collection_offer':
          return add('collection_offer_cancelled', plan.offer.price);
        case 'fill_collection_offer':
          return add('collection_offer_filled', plan.offer.price);
        case 'purchase_lootbox':
          return add('lootbox_purchased', plan.amount);
        case 'open_lootbox':
          mints++;
          return add('lootbox_opened');
        case 'mint':
          mints += plan.tokens.length;
          return;
        case 'burn':
          burns++;
          return;
        default:
          return;
      }
    },
  });
  return { market, floors, mints, burns, lastEventVersion };
}

/** The feed kinds a devnet market or lootbox plan produces one event of. */
export const MARKET_KINDS = new Set<string>([
  ...Object.values(STORED_MARKET_KINDS),
  'lootbox_purchased',
  'lootbox_opened',
]);

/** A consumer's market and lootbox events in the shape of `plannedEvents(...).market`. */
export function marketEventsOf(events: readonly FeedEvent[]): PlannedEvent[] {
  return events
    .filter((e) => MARKET_KINDS.has(e.kind))
    .map((e) => ({ version: e.version, kind: e.kind, price: e.kind === 'lootbox_opened' ? null : e.price }));
}

/**
 * A consumer's floor changes as `plannedEvents(...).floors`, each checked to name the collection
 * of the listing event of its version (one market action per devnet transaction).
 */
export function floorEventsOf(events: readonly FeedEvent[], who: string) {
  const floors = events.filter((e) => e.kind === 'floor_changed');
  for (const f of floors) {
    const moved = events.find((e) => e.version === f.version && e.kind.startsWith('listing_'));
    expect(moved?.collectionId, `${who}: the listing event of ${f.id}`).toBe(f.collectionId);
  }
  return floors.map((f) => ({ version: f.version, price: f.price }));
}

/** Strictly increasing `<version>:<eventIndex>`: chain order, and no event twice. */
export function expectChainOrder(events: readonly FeedEvent[], who: string): void {
  for (let i = 1; i < events.length; i++) {
    const a = events[i - 1] as FeedEvent;
    const b = events[i] as FeedEvent;
    const increasing = b.version > a.version || (b.version === a.version && b.eventIndex > a.eventIndex);
    expect(increasing, `${who}: ${a.id} then ${b.id}`).toBe(true);
  }
}
