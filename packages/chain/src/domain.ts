/**
 * The normalized facts that the decoder extracts from one transaction. This is the contract between
 * `packages/chain` (pure decoding) and `apps/indexer` (which turns facts into rows). Every address is
 * long form (see address.ts); every u64 is a decimal string; versions and event indexes are numbers
 * (Aptos versions stay far below 2^53).
 *
 * Facts carry absolute state where the chain offers it (a balance, an owner, a supply), so that
 * replaying a transaction overwrites a row with the same value instead of adding a delta twice.
 */

export type TokenStandard = 'v1' | 'v2';

/** Where a fact came from: the transaction version and the event's position in its events array. */
export interface EventRef {
  version: number;
  /** Position in the transaction's `events` array; write-set facts use -1 - (change index). */
  eventIndex: number;
  /** Microseconds since the Unix epoch, as the chain gives it. */
  timestampUs: string;
}

export interface CollectionFact {
  collectionId: string;
  tokenStandard: TokenStandard;
  /** Empty (with collectionName) for a supply-only fact: the transaction rewrote only the supply. */
  creatorAddress: string;
  collectionName: string;
  description: string | null;
  uri: string | null;
  /** Absolute values read from the write set; null when this transaction does not show them. */
  currentSupply: string | null;
  maxSupply: string | null;
  totalMinted: string | null;
  version: number;
}

export interface TokenDataFact {
  tokenDataId: string;
  tokenStandard: TokenStandard;
  collectionId: string;
  creatorAddress: string | null;
  collectionName: string | null;
  tokenName: string;
  description: string | null;
  tokenUri: string | null;
  /** Decoded property map (v1 default properties or v2 PropertyMap): key -> display string. Null when not shown. */
  properties: Record<string, string> | null;
  supply: string | null;
  maximum: string | null;
  largestPropertyVersion: string | null;
  isSoulbound: boolean | null;
  version: number;
}

export type TokenActivityKind =
  | 'mint'
  | 'burn'
  | 'transfer'
  | 'deposit'
  | 'withdraw'
  | 'offer'
  | 'claim'
  | 'cancel_offer'
  | 'mutate'
  | 'create';

export interface TokenActivityFact extends EventRef {
  kind: TokenActivityKind;
  /** The full Move event type string, e.g. `0x3::token::DepositEvent`. */
  eventType: string;
  tokenDataId: string;
  tokenStandard: TokenStandard;
  collectionId: string | null;
  propertyVersion: string;
  fromAddress: string | null;
  toAddress: string | null;
  amount: string;
  /**
   * Added (optional): mutation events (0x4::token::MutationEvent / Mutation) name the field and
   * its old and new value; the official processor keeps them as before/after values.
   */
  mutatedField?: string | null;
  beforeValue?: string | null;
  afterValue?: string | null;
  /**
   * Added (optional), v1 only: the names the event's TokenId carries (v1 ids are derived from
   * them), so a token minted before indexing began can still be found by name.
   */
  names?: V1Names;
}

/** The names a v1 TokenId carries: its token data id is sha256(`creator::collection::name`). */
export interface V1Names {
  creatorAddress: string;
  collectionName: string;
  tokenName: string;
}

/**
 * Absolute balance of one (token, property version, owner) after this transaction. For v1 the
 * owner can be unknown inside one transaction (only the TokenStore table handle is visible): then
 * `owner` is null and `tableHandle` says which table; the indexer resolves it from earlier
 * `TableHandleFact`s.
 */
export interface OwnershipFact {
  tokenDataId: string;
  tokenStandard: TokenStandard;
  propertyVersion: string;
  collectionId: string | null;
  owner: string | null;
  tableHandle: string | null;
  amount: string;
  isSoulbound: boolean | null;
  version: number;
  /**
   * Added (optional), v1 only: a token with property version > 0 carries its own property map
   * (mutated per token, e.g. game stats) in the TokenStore item; the official processor keeps it.
   */
  tokenProperties?: Record<string, string> | null;
  /**
   * Added (optional), v2 only: `ObjectCore.owner` before resolving through owning objects. It
   * differs from `owner` when the token sits in an escrow / listing object (owner = the wallet).
   */
  directOwner?: string | null;
}

/** A v1 `TokenStore.tokens` (or PendingClaims) table handle and the account that owns it. */
export interface TableHandleFact {
  handle: string;
  owner: string;
  kind: 'token_store' | 'pending_claims' | 'collections';
  version: number;
}

/** v1 direct-transfer offer (0x3::token_transfers): absolute pending amount from sender to receiver. */
export interface PendingClaimFact {
  tokenDataId: string;
  propertyVersion: string;
  fromAddress: string;
  toAddress: string;
  collectionId: string | null;
  amount: string;
  version: number;
}

export type MarketKind =
  | 'place_listing'
  | 'cancel_listing'
  | 'fill_listing'
  | 'place_token_offer'
  | 'cancel_token_offer'
  | 'fill_token_offer'
  | 'place_collection_offer'
  | 'cancel_collection_offer'
  | 'fill_collection_offer';

export interface MarketActivityFact extends EventRef {
  kind: MarketKind;
  /** Name of the marketplace config that matched, e.g. `wapal`, `tradeport_v2`, `mdq`. */
  marketplace: string;
  /** The event key's account (Wapal: the fee-schedule object; module events: the type's address). */
  contractAddress: string;
  rawEventType: string;
  tokenDataId: string | null;
  tokenStandard: TokenStandard | null;
  propertyVersion: string | null;
  collectionId: string | null;
  collectionName: string | null;
  creatorAddress: string | null;
  tokenName: string | null;
  price: string;
  tokenAmount: string;
  coinType: string | null;
  seller: string | null;
  buyer: string | null;
  listingId: string | null;
  offerId: string | null;
  commission: string | null;
  royalties: string | null;
  /** Offer expiry in microseconds when the transaction shows it (Wapal offer resources). */
  expirationTimeUs: string | null;
  /** Collection offers: tokens still wanted after this event, when the chain shows it. */
  remainingTokenAmount: string | null;
  /**
   * Sales only, present (true) when the seller paid the buyer at least the price in the same
   * transaction (a wash-trade signal; see coin-flows.ts). Absent otherwise.
   */
  sellerFunded?: true;
  /**
   * Added (optional): the sale event named no price (`price` is '0' here); the indexer stores it at
   * the price, and with the seller, of the listing it closes (MarketEventConfig.priceFromListing).
   */
  priceFromListing?: true;
}

export interface LootboxTier {
  name: string;
  weight: string;
  maxSupply: string;
}

export type LootboxFact =
  | (EventRef & {
      kind: 'created';
      lootboxId: string;
      creator: string;
      collectionName: string;
      collectionId: string;
      price: string;
      coinType: string;
      maxSupply: string;
      mintStartSecs: string;
      mintEndSecs: string;
      tiers: LootboxTier[];
    })
  | (EventRef & {
      kind: 'updated';
      lootboxId: string;
      price: string;
      mintStartSecs: string;
      mintEndSecs: string;
      paused: boolean;
    })
  | (EventRef & {
      kind: 'purchased';
      lootboxId: string;
      buyer: string;
      quantity: string;
      amountPaid: string;
      coinType: string;
    })
  | (EventRef & { kind: 'opened'; lootboxId: string; owner: string; tokenDataId: string; tier: string });

export interface DecodedTransaction {
  version: number;
  timestampUs: string;
  success: boolean;
  collections: CollectionFact[];
  tokens: TokenDataFact[];
  tokenActivities: TokenActivityFact[];
  ownerships: OwnershipFact[];
  tableHandles: TableHandleFact[];
  pendingClaims: PendingClaimFact[];
  marketActivities: MarketActivityFact[];
  lootbox: LootboxFact[];
  /**
   * Tokens this transaction burned for good: v2 token objects deleted or soft-burned, and v1 token
   * data whose TokenData the burn deleted (its supply reached 0).
   */
  burnedTokens: string[];
  /**
   * Added (optional), v1 only: token data a burn event named whose TokenData stayed (untracked
   * supply, or copies left). The indexer marks them burned when no positive balance remains.
   */
  v1BurnedUnlessHeld?: string[];
}
