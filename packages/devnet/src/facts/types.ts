import type { MetadataFault, TraitSource } from '../metadata/plan';
/** Window keys used throughout the facts: trailing windows ending at the chain's "now". */
export const WINDOWS = ['24h', '7d', '30d', 'all'] as const;
export type WindowKey = (typeof WINDOWS)[number];
export type PerWindow<T> = Record<WindowKey, T>;

export const WINDOW_US: Record<Exclude<WindowKey, 'all'>, number> = {
  '24h': 86_400_000_000,
  '7d': 7 * 86_400_000_000,
  '30d': 30 * 86_400_000_000,
};

export interface OfferCounts {
  placed: number;
  cancelled: number;
  filled: number;
  /** Still open at "now" (not filled, cancelled or past expiration_time). */
  active: number;
  /** Lapsed: expiration_time passed before being filled or cancelled. */
  expired: number;
}

export interface CollectionFacts {
  /** Where the collection keeps its traits: the property map, the off-chain document, or both. */
  traitSource: TraitSource;
  /** `both`: the trait type both sources name, the document with another value; else null. */
  conflictTrait: string | null;
  /** v2: collection object address; v1: sha256(creator::collection) — both AIP-40 long form. */
  collectionId: string;
  name: string;
  standard: 'v1' | 'v2';
  creator: string;
  lootboxId: number | null;
  createdVersion: number;
  /** Tokens in existence now (minted - burned). */
  supply: number;
  minted: number;
  burned: number;
  /** Distinct wallets holding >= 1 token now; a listed token counts for its seller. */
  holders: number;
  activeListings: number;
  /** Lowest active listing price in octas (string), null without listings. `now` and at each window start. */
  floor: { now: string | null; '24h': string | null; '7d': string | null; '30d': string | null };
  /** Fills of listings, token offers and collection offers. */
  sales: PerWindow<number>;
  volume: PerWindow<string>;
  uniqueBuyers: PerWindow<number>;
  tokenOffers: OfferCounts;
  collectionOffers: OfferCounts;
}

export interface LootboxFacts {
  lootboxId: number;
  collectionId: string;
  name: string;
  status: 'upcoming' | 'active' | 'sold_out' | 'ended';
  paused: boolean;
  price: string;
  maxSupply: number;
  mintStartSecs: number;
  mintEndSecs: number;
  createdVersion: number;
  /** Purchase transactions. */
  purchases: number;
  /** Boxes bought (sum of quantity). */
  purchased: number;
  /** Boxes opened = tokens minted. */
  minted: number;
  revenue: PerWindow<string>;
  tiers: { name: string; weight: number; maxSupply: number; minted: number }[];
}

export interface TokenFacts {
  tokenId: string;
  name: string;
  serial: number;
  owner: string;
  listed: boolean;
  /** Octas asked by its active listing, null when not listed. */
  listPrice: string | null;
  /** The on-chain property map: trait name -> value; absent traits are missing. Lootbox tokens: { tier }. */
  traits: Record<string, string>;
  /** The traits its off-chain document lists; null when its URI misbehaves (`metadataFault`). */
  documentTraits: Record<string, string> | null;
  /**
   * The token's traits as a reader of both sources shows them: the document's, with the property
   * map's value where both name a trait (mdq's documented precedence). What rarity is computed over.
   */
  expectedTraits: Record<string, string>;
  /** How its document URI misbehaves, null when it serves a good document. */
  metadataFault: MetadataFault | null;
  /** The version that minted it. */
  mintedVersion: number;
  /** The version that placed (or last repriced) its active listing, null when not listed. */
  listedVersion: number | null;
}

/** An offer still open at "now" (neither filled nor cancelled; it may have expired). */
export interface OpenOfferFact {
  kind: 'token' | 'collection';
  buyer: string;
  collectionId: string;
  /** Token offers only. */
  tokenId: string | null;
  /** Octas per token. */
  price: string;
  placedVersion: number;
  expiresSecs: number;
}

export interface UserFacts {
  address: string;
  tokensHeld: number;
  /** Token ids held now (listed tokens included). */
  tokens: string[];
  /** Collection id -> count. */
  perCollection: Record<string, number>;
}

/** One sale (a filled listing, token offer or collection offer) in chain order. */
export interface SaleFact {
  version: number;
  timestampUs: string;
  collectionId: string;
  tokenId: string;
  seller: string;
  buyer: string;
  /** Octas. */
  price: string;
  /** Why the simulator made it a wash trade, or null for an ordinary sale. */
  wash: 'self_trade' | 'round_trip' | 'token_churn' | 'seller_funded' | null;
}

/** A moment on the chain: the transaction and its block timestamp. */
export interface ChainMoment {
  version: number;
  timestampUs: string;
}

/**
 * One listing from its placement to its end. A price update is a second placement of the same
 * listing; the asking price at time T is the last entry of `prices` before T.
 */
export interface ListingFact {
  collectionId: string;
  tokenId: string;
  seller: string;
  /** Octas asked, from the placement and each later price update, in chain order. */
  prices: (ChainMoment & { price: string })[];
  /** When it stopped being buyable (filled or cancelled); null while open at "now". */
  end: (ChainMoment & { kind: 'sold' | 'cancelled' }) | null;
}

/** One collection offer from its placement to its end; it also lapses at `expiresUs` without an event. */
export interface CollectionOfferFact {
  collectionId: string;
  buyer: string;
  /** Octas offered per token. */
  price: string;
  /** Tokens wanted. */
  amount: number;
  placed: ChainMoment;
  expiresUs: string;
  /** Tokens sold into it so far. */
  filled: number;
  /** Cancelled, or filled for its whole amount; null otherwise (it may still have expired). */
  end: (ChainMoment & { kind: 'filled' | 'cancelled' }) | null;
}

export interface DevnetFacts {
  format: 'mdq-devnet-facts/1';
  chain: {
    seed: number;
    chainId: number;
    /** Versions of the initial chain (lastVersion - firstVersion + 1): user and system transactions. */
    transactionsCount: number;
    /** User transactions of the initial chain (the simulator's steps; ChainOptions.transactionsCount). */
    userTransactions: number;
    /** Blocks of the initial chain (heights 0 .. blocks-1). */
    blocks: number;
    firstVersion: number;
    lastVersion: number;
    startTimestampUs: string;
    /** "now" of every window: the timestamp of the last initial transaction. */
    nowUs: string;
    /** Window start timestamps (µs); a transaction is in a window when timestamp >= start. */
    windowStartUs: { '24h': string; '7d': string; '30d': string };
    marketplaceAddress: string;
    lootboxAddress: string;
  };
  totals: {
    tokensMinted: number;
    tokensBurned: number;
    sales: number;
    volume: string;
    lootboxRevenue: string;
  };
  collections: CollectionFacts[];
  lootboxes: LootboxFacts[];
  users: UserFacts[];
  /** Every token of the sampled collections (all collections for small chains), keyed by collection id. */
  tokens: Record<string, TokenFacts[]>;
  /** Every sale with its wash-trade label, on chains small enough to list tokens (empty otherwise). */
  sales: SaleFact[];
  /** Every open offer, on chains small enough to list tokens (empty otherwise). */
  openOffers: OpenOfferFact[];
  /** Every listing of the initial chain, under the same condition as `sales`. */
  listings: ListingFact[];
  /** Every collection offer of the initial chain, under the same condition as `sales`. */
  collectionOffers: CollectionOfferFact[];
}
