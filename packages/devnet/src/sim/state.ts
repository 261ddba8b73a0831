import type { World } from '../world/world';

/** Why the simulator made a sale as a wash trade (the label the detection is measured against). */
export type WashLabel = 'self_trade' | 'round_trip' | 'token_churn' | 'seller_funded';

/** One transaction of a wash-trade campaign: `list` puts the token up for its owner, `fill` sells it to `buyer`. */
export interface WashStep {
  kind: 'list' | 'fill';
  token: number;
  buyer: number;
  label: WashLabel;
  /** Octas the seller hands the buyer in the fill transaction. */
  funding: number;
}

export interface TokenOffer {
  id: number;
  token: number;
  buyer: number;
  price: number;
  expiresSecs: number;
}

export interface CollectionOffer {
  id: number;
  collection: number;
  buyer: number;
  price: number;
  amount: number;
  remaining: number;
  expiresSecs: number;
}

export interface LootboxState {
  created: boolean;
  price: number;
  mintStartSecs: number;
  mintEndSecs: number;
  paused: boolean;
  purchased: number;
  minted: number;
  tierMinted: number[];
  /** Buyers of unopened boxes, FIFO from `pendingHead`. */
  pending: number[];
  pendingHead: number;
}

/** Marketplace handle-event streams (creation numbers follow Wapal's fee-schedule object). */
export const MARKET_STREAMS = [
  'listing_placed',
  'listing_canceled',
  'listing_filled',
  'collection_offer_placed',
  'collection_offer_canceled',
  'collection_offer_filled',
  'token_offer_placed',
  'token_offer_canceled',
  'token_offer_filled',
] as const;
export type MarketStream = (typeof MARKET_STREAMS)[number];

function grow<T extends Uint32Array | Int32Array | Float64Array | Int8Array>(a: T, size: number): T {
  const next = new (a.constructor as new (n: number) => T)(size);
  next.set(a);
  return next;
}

/**
 * All mutable simulation state, in flat typed arrays where it scales with the chain so that a
 * checkpoint is a handful of memcpy's. Anything the simulator reads must live here (or be a pure
 * function of the world and the version), otherwise resuming from a checkpoint would diverge.
 */
export class SimState {
  version = 0;
  rng: [number, number, number, number] = [0, 0, 0, 0];
  // accounts
  seq: Uint32Array;
  v1Deposit: Uint32Array;
  v1Withdraw: Uint32Array;
  v1Burn: Uint32Array;
  v1CollectionEvents: Uint32Array;
  v1TokenDataEvents: Uint32Array;
  v1MintEvents: Uint32Array;
  // collections
  collCreated: Uint8Array;
  collMinted: Uint32Array;
  collSupply: Uint32Array;
  collMintEvents: Uint32Array;
  collBurnEvents: Uint32Array;
  collTokens: number[][];
  collListings: number[][];
  activeListings = 0;
  // tokens
  tokenCount = 0;
  tokColl: Uint32Array;
  tokSerial: Uint32Array;
  /** Wallet owning the token (the seller while it sits in a listing); -1 once burned. */
  tokOwner: Int32Array;
  tokListing: Uint32Array;
  tokPrice: Float64Array;
  tokTransfers: Uint32Array;
  tokTier: Int8Array;
  tokListPos: Int32Array;
  /** Chain seconds before which the token's current owner will not sell it (a holder's patience). */
  tokHoldUntil: Float64Array;
  // market
  nextListingId = 1;
  nextTokenOfferId = 1;
  nextCollectionOfferId = 1;
  marketEvents: Float64Array;
  tokenOffers: TokenOffer[] = [];
  /** Steps of the wash-trade campaign in flight, run on the next versions before any other action. */
  washQueue: WashStep[] = [];
  /** The price every listing of the campaign in flight asks. */
  washPrice = 0;
  collectionOffers: CollectionOffer[] = [];
  lootboxes: LootboxState[];

  constructor(world: World | null, tokenCapacity = 1024) {
    const accounts = world?.config.accounts ?? 0;
    const collections = world?.collections.length ?? 0;
    this.seq = new Uint32Array(accounts);
    this.v1Deposit = new Uint32Array(accounts);
    this.v1Withdraw = new Uint32Array(accounts);
    this.v1Burn = new Uint32Array(accounts);
    this.v1CollectionEvents = new Uint32Array(accounts);
    this.v1TokenDataEvents = new Uint32Array(accounts);
    this.v1MintEvents = new Uint32Array(accounts);
    this.collCreated = new Uint8Array(collections);
    this.collMinted = new Uint32Array(collections);
    this.collSupply = new Uint32Array(collections);
    this.collMintEvents = new Uint32Array(collections);
    this.collBurnEvents = new Uint32Array(collections);
    this.collTokens = Array.from({ length: collections }, () => []);
    this.collListings = Array.from({ length: collections }, () => []);
    this.tokColl = new Uint32Array(tokenCapacity);
    this.tokSerial = new Uint32Array(tokenCapacity);
    this.tokOwner = new Int32Array(tokenCapacity);
    this.tokListing = new Uint32Array(tokenCapacity);
    this.tokPrice = new Float64Array(tokenCapacity);
    this.tokTransfers = new Uint32Array(tokenCapacity);
    this.tokTier = new Int8Array(tokenCapacity);
    this.tokListPos = new Int32Array(tokenCapacity);
    this.tokHoldUntil = new Float64Array(tokenCapacity);
    this.marketEvents = new Float64Array(MARKET_STREAMS.length);
    this.lootboxes = (world?.lootboxes ?? []).map((lb) => ({
      created: false,
      price: lb.price,
      mintStartSecs: lb.mintStartSecs,
      mintEndSecs: lb.mintEndSecs,
      paused: false,
      purchased: 0,
      minted: 0,
      tierMinted: lb.tiers.map(() => 0),
      pending: [],
      pendingHead: 0,
    }));
  }

  /** Appends a token and returns its index. */
  addToken(collection: number, serial: number, owner: number, tier: number): number {
    const t = this.tokenCount++;
    if (t >= this.tokColl.length) {
      const size = this.tokColl.length * 2;
      this.tokColl = grow(this.tokColl, size);
      this.tokSerial = grow(this.tokSerial, size);
      this.tokOwner = grow(this.tokOwner, size);
      this.tokListing = grow(this.tokListing, size);
      this.tokPrice = grow(this.tokPrice, size);
      this.tokTransfers = grow(this.tokTransfers, size);
      this.tokTier = grow(this.tokTier, size);
      this.tokListPos = grow(this.tokListPos, size);
      this.tokHoldUntil = grow(this.tokHoldUntil, size);
    }
    this.tokColl[t] = collection;
    this.tokSerial[t] = serial;
    this.tokOwner[t] = owner;
    this.tokListing[t] = 0;
    this.tokPrice[t] = 0;
    this.tokTransfers[t] = 0;
    this.tokTier[t] = tier;
    this.tokListPos[t] = -1;
    this.tokHoldUntil[t] = 0;
    this.collTokens[collection]?.push(t);
    return t;
  }

  nextMarketSeq(stream: MarketStream): number {
    const i = MARKET_STREAMS.indexOf(stream);
    const seq = this.marketEvents[i] ?? 0;
    this.marketEvents[i] = seq + 1;
    return seq;
  }

  clone(): SimState {
    const c = new SimState(null, 0);
    c.version = this.version;
    c.rng = [...this.rng];
    c.seq = this.seq.slice();
    c.v1Deposit = this.v1Deposit.slice();
    c.v1Withdraw = this.v1Withdraw.slice();
    c.v1Burn = this.v1Burn.slice();
    c.v1CollectionEvents = this.v1CollectionEvents.slice();
    c.v1TokenDataEvents = this.v1TokenDataEvents.slice();
    c.v1MintEvents = this.v1MintEvents.slice();
    c.collCreated = this.collCreated.slice();
    c.collMinted = this.collMinted.slice();
    c.collSupply = this.collSupply.slice();
    c.collMintEvents = this.collMintEvents.slice();
    c.collBurnEvents = this.collBurnEvents.slice();
    c.collTokens = this.collTokens.map((a) => a.slice());
    c.collListings = this.collListings.map((a) => a.slice());
    c.activeListings = this.activeListings;
    c.tokenCount = this.tokenCount;
    // Keep some headroom so the clone does not immediately reallocate.
    const cap = Math.max(1024, this.tokColl.length);
    const copy = <T extends Uint32Array | Int32Array | Float64Array | Int8Array>(a: T): T => {
      const next = new (a.constructor as new (n: number) => T)(cap);
      next.set(a.subarray(0, this.tokenCount));
      return next;
    };
    c.tokColl = copy(this.tokColl);
    c.tokSerial = copy(this.tokSerial);
    c.tokOwner = copy(this.tokOwner);
    c.tokListing = copy(this.tokListing);
    c.tokPrice = copy(this.tokPrice);
    c.tokTransfers = copy(this.tokTransfers);
    c.tokTier = copy(this.tokTier);
    c.tokListPos = copy(this.tokListPos);
    c.tokHoldUntil = copy(this.tokHoldUntil);
    c.nextListingId = this.nextListingId;
    c.nextTokenOfferId = this.nextTokenOfferId;
    c.nextCollectionOfferId = this.nextCollectionOfferId;
    c.marketEvents = this.marketEvents.slice();
    c.tokenOffers = this.tokenOffers.map((o) => ({ ...o }));
    c.washQueue = this.washQueue.map((w) => ({ ...w }));
    c.washPrice = this.washPrice;
    c.collectionOffers = this.collectionOffers.map((o) => ({ ...o }));
    c.lootboxes = this.lootboxes.map((lb) => ({
      ...lb,
      tierMinted: lb.tierMinted.slice(),
      pending: lb.pending.slice(lb.pendingHead),
      pendingHead: 0,
    }));
    return c;
  }

  /** Approximate bytes held, for choosing checkpoint spacing. */
  approximateBytes(): number {
    return this.tokenCount * 40 + this.seq.length * 28 + this.tokenOffers.length * 80;
  }
}
