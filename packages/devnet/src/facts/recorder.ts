import type { StepObserver } from '../chain/stream';
import type { Plan, WashLabel } from '../sim/plan';
import type { Simulator } from '../sim/simulator';
import type { World } from '../world/world';
import { buildFacts } from './build';
import {
  type CollectionOfferRecord,
  type CollectionTally,
  floors,
  type ListingRecord,
  type LootboxTally,
  type RecordedTallies,
  type SaleRecord,
} from './tally';
import { type DevnetFacts, WINDOW_US, WINDOWS, type WindowKey } from './types';

const FLOOR_WINDOWS = ['30d', '7d', '24h'] as const;

/**
 * Watches the simulation of the initial chain and keeps what the facts need but the final state
 * cannot tell: sales per window, buyers, revenue, floors at each window start.
 */
export class FactsRecorder implements StepObserver, RecordedTallies {
  readonly collections: CollectionTally[];
  readonly lootboxes: LootboxTally[];
  readonly saleLog: SaleRecord[] = [];
  readonly mintedAt = new Map<number, number>();
  readonly listedAt = new Map<number, number>();
  readonly tokenOfferPlacedAt = new Map<number, number>();
  readonly collectionOfferPlacedAt = new Map<number, number>();
  readonly listingLog = new Map<number, ListingRecord>();
  readonly collectionOfferLog = new Map<number, CollectionOfferRecord>();
  readonly floorsAt: Partial<Record<WindowKey, (number | null)[]>> = {};
  private readonly starts: number[];

  constructor(readonly world: World) {
    const end = world.config.endTimeUs;
    this.starts = WINDOWS.map((w) => (w === 'all' ? Number.NEGATIVE_INFINITY : end - WINDOW_US[w]));
    this.collections = world.collections.map(() => ({
      sales: [0, 0, 0, 0],
      volume: [0, 0, 0, 0],
      buyers: [new Set<number>(), new Set<number>(), new Set<number>(), new Set<number>()],
      tokenOffers: { placed: 0, cancelled: 0, filled: 0 },
      collectionOffers: { placed: 0, cancelled: 0, filled: 0 },
    }));
    this.lootboxes = world.lootboxes.map(() => ({ purchases: 0, revenue: [0, 0, 0, 0] }));
  }

  before(sim: Simulator, _step: number, timestampUs: number): void {
    for (const w of FLOOR_WINDOWS) {
      if (this.floorsAt[w] === undefined && timestampUs >= this.world.config.endTimeUs - WINDOW_US[w]) {
        this.floorsAt[w] = floors(sim.state);
      }
    }
  }

  after(sim: Simulator, plan: Plan, step: number, timestampUs: number): void {
    const s = sim.state;
    // Facts speak in chain versions: the step's place after its block's system transactions.
    const version = this.world.timeline.versionOfStep(step);
    const log = (token: number, seller: number, buyer: number, price: number, wash: WashLabel | null) =>
      this.saleLog.push({
        version,
        timestampUs,
        collection: s.tokColl[token] ?? 0,
        token,
        seller,
        buyer,
        price,
        wash,
      });
    const at = { version, timestampUs };
    switch (plan.kind) {
      case 'mint':
        for (const m of plan.tokens) this.mintedAt.set(m.token, version);
        break;
      case 'open_lootbox':
        this.mintedAt.set(plan.minted.token, version);
        break;
      case 'list':
        this.listedAt.set(plan.token, version);
        this.listingLog.set(plan.listingId, {
          token: plan.token,
          seller: plan.seller,
          prices: [{ ...at, price: plan.price }],
          end: null,
        });
        break;
      case 'relist':
        this.listedAt.set(plan.token, version);
        this.listingLog.get(plan.listingId)?.prices.push({ ...at, price: plan.price });
        break;
      case 'cancel_listing':
        this.endListing(plan.listingId, { ...at, kind: 'cancelled' });
        break;
      case 'fill_listing':
        this.endListing(plan.listingId, { ...at, kind: 'sold' });
        this.sale(s.tokColl[plan.token] ?? 0, plan.buyer, plan.price, timestampUs);
        log(plan.token, plan.seller, plan.buyer, plan.price, plan.wash ?? null);
        break;
      case 'fill_token_offer':
        this.sale(s.tokColl[plan.offer.token] ?? 0, plan.offer.buyer, plan.offer.price, timestampUs);
        log(plan.offer.token, plan.seller, plan.offer.buyer, plan.offer.price, null);
        this.tally(s.tokColl[plan.offer.token] ?? 0).tokenOffers.filled++;
        break;
      case 'fill_collection_offer':
        this.sale(plan.offer.collection, plan.offer.buyer, plan.offer.price, timestampUs);
        log(plan.token, plan.seller, plan.offer.buyer, plan.offer.price, null);
        this.tally(plan.offer.collection).collectionOffers.filled++;
        this.offerFilled(plan.offer.id, plan.offer.remaining, at);
        break;
      case 'place_token_offer':
        this.tokenOfferPlacedAt.set(plan.offer.id, version);
        this.tally(s.tokColl[plan.offer.token] ?? 0).tokenOffers.placed++;
        break;
      case 'cancel_token_offer':
        this.tally(s.tokColl[plan.offer.token] ?? 0).tokenOffers.cancelled++;
        break;
      case 'place_collection_offer':
        this.collectionOfferPlacedAt.set(plan.offer.id, version);
        this.tally(plan.offer.collection).collectionOffers.placed++;
        this.collectionOfferLog.set(plan.offer.id, {
          collection: plan.offer.collection,
          buyer: plan.offer.buyer,
          price: plan.offer.price,
          amount: plan.offer.amount,
          placed: at,
          expiresSecs: plan.offer.expiresSecs,
          filled: 0,
          end: null,
        });
        break;
      case 'cancel_collection_offer': {
        this.tally(plan.offer.collection).collectionOffers.cancelled++;
        const o = this.collectionOfferLog.get(plan.offer.id);
        if (o !== undefined) o.end = { ...at, kind: 'cancelled' };
        break;
      }
      case 'purchase_lootbox': {
        const t = this.lootboxes[plan.lootbox];
        if (t === undefined) break;
        t.purchases++;
        this.starts.forEach((start, i) => {
          if (timestampUs >= start) t.revenue[i] = (t.revenue[i] ?? 0) + plan.amount;
        });
        break;
      }
      default:
        break;
    }
  }

  private endListing(id: number, end: NonNullable<ListingRecord['end']>): void {
    const l = this.listingLog.get(id);
    if (l !== undefined) l.end = end;
  }

  private offerFilled(id: number, remaining: number, at: { version: number; timestampUs: number }): void {
    const o = this.collectionOfferLog.get(id);
    if (o === undefined) return;
    o.filled++;
    if (remaining <= 0) o.end = { ...at, kind: 'filled' };
  }

  private tally(c: number): CollectionTally {
    const t = this.collections[c];
    if (t === undefined) throw new Error(`no collection ${c}`);
    return t;
  }

  private sale(c: number, buyer: number, price: number, timestampUs: number): void {
    const t = this.tally(c);
    this.starts.forEach((start, i) => {
      if (timestampUs < start) return;
      t.sales[i] = (t.sales[i] ?? 0) + 1;
      t.volume[i] = (t.volume[i] ?? 0) + price;
      t.buyers[i]?.add(buyer);
    });
  }

  finish(sim: Simulator): DevnetFacts {
    return buildFacts(this.world, sim.state, this);
  }
}
