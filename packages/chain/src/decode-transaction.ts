import type { TransactionResponse } from '@aptos-labs/ts-sdk';
import { normalizeAddress } from './address';
import { decodeCoinMoves, sellerFundedBuyer } from './coin-flows';
import type { CollectionFact, DecodedTransaction, MarketActivityFact, TokenDataFact } from './domain';
import { decodeLootboxEvents } from './lootbox';
import { isSaleKind } from './market-kinds';
import type { MarketplaceConfig } from './marketplaces/config';
import { compileMarketplaces, decodeMarketEvents, type MarketplaceIndex } from './marketplaces/engine';
import { decodeV1Events } from './token-v1/activities';
import { decodeV1Burns } from './token-v1/burns';
import { applyV1ListingEscrow } from './token-v1/listing-escrow';
import { decodeV1Tables } from './token-v1/table-state';
import { decodeV2Activities } from './token-v2/activities';
import { decodeV2Collections } from './token-v2/collections';
import { readV2Events } from './token-v2/events';
import { decodeV2Ownerships } from './token-v2/ownership';
import { collectTokenSet } from './token-v2/token-set';
import { decodeV2Tokens } from './token-v2/tokens';
import { readTransaction, type TxView } from './transaction-view';
import { WriteSetIndex } from './write-set';

export interface DecodeOptions {
  marketplaces: readonly MarketplaceConfig[];
  lootboxAddress: string;
}

/**
 * What the decoder accepts: a transaction from the fullnode REST API (`@aptos-labs/ts-sdk`
 * `TransactionResponse`, typically `UserTransactionResponse`) or the same JSON parsed from disk.
 */
export type AptosTransaction = TransactionResponse | Record<string, unknown>;

/** Compiling configs parses every JSON path; reuse the result across transactions. */
const compiledCache = new WeakMap<readonly MarketplaceConfig[], MarketplaceIndex>();

function marketplaceIndex(configs: readonly MarketplaceConfig[]): MarketplaceIndex {
  let index = compiledCache.get(configs);
  if (!index) {
    index = compileMarketplaces(configs);
    compiledCache.set(configs, index);
  }
  return index;
}

/**
 * Decode one transaction into normalized facts. Failed transactions give empty facts; every other
 * type (user, block metadata, validator, epilogue, scheduled, one this build does not know) is read
 * by the same decoders — a system transaction has no NFT events today, so it decodes to nothing.
 * Throws `DecodeError` only for malformed input.
 */
export function decodeTransaction(tx: AptosTransaction, options: DecodeOptions): DecodedTransaction {
  const view = readTransaction(tx);
  const decoded = emptyFacts(view);
  if (!view.success) return decoded;
  const writeSet = new WriteSetIndex(view);

  const v1Events = decodeV1Events(view);
  const v1Tables = decodeV1Tables(view, v1Events);
  const v2Events = readV2Events(view);
  const tokenSet = collectTokenSet(v2Events, writeSet);

  decoded.collections = preferWriteSet(
    v1Tables.collections,
    v1Events.createdCollections,
    (c) => c.collectionId,
  ).concat(decodeV2Collections(view, writeSet));
  decoded.tokens = preferWriteSet<TokenDataFact>(
    v1Tables.tokens,
    v1Events.createdTokens,
    (t) => t.tokenDataId,
  ).concat(decodeV2Tokens(view, writeSet, tokenSet));
  decoded.tokenActivities = [
    ...v1Events.activities,
    ...decodeV2Activities(view, v2Events, writeSet, tokenSet),
  ].sort((a, b) => a.eventIndex - b.eventIndex);
  decoded.ownerships = [...v1Tables.ownerships, ...decodeV2Ownerships(view, v2Events, writeSet, tokenSet)];
  decoded.tableHandles = v1Tables.tableHandles;
  decoded.pendingClaims = v1Tables.pendingClaims;
  decoded.marketActivities = markSellerFunded(
    decodeMarketEvents(view, marketplaceIndex(options.marketplaces), writeSet),
    view,
    writeSet,
  );
  decoded.ownerships = applyV1ListingEscrow(decoded.ownerships, decoded.marketActivities, view.version);
  decoded.lootbox = decodeLootboxEvents(view, normalizeAddress(options.lootboxAddress));
  const v1Burns = decodeV1Burns(view, v1Events.activities);
  decoded.burnedTokens = [...tokenSet.burned, ...v1Burns.gone];
  if (v1Burns.unlessHeld.length > 0) decoded.v1BurnedUnlessHeld = v1Burns.unlessHeld;
  return decoded;
}

/** Coin events are only read when the transaction holds a sale. */
function markSellerFunded(
  activities: MarketActivityFact[],
  view: TxView,
  writeSet: WriteSetIndex,
): MarketActivityFact[] {
  if (!activities.some((a) => isSaleKind(a.kind))) return activities;
  const moves = decodeCoinMoves(view, writeSet);
  if (moves.length === 0) return activities;
  return activities.map((a) =>
    isSaleKind(a.kind) && sellerFundedBuyer(moves, a) ? { ...a, sellerFunded: true } : a,
  );
}

function emptyFacts(view: TxView): DecodedTransaction {
  return emptyDecoded(view.version, view.timestampUs, view.success);
}

/** A transaction with no facts. */
export function emptyDecoded(version: number, timestampUs: string, success: boolean): DecodedTransaction {
  return {
    version,
    timestampUs,
    success,
    collections: [],
    tokens: [],
    tokenActivities: [],
    ownerships: [],
    tableHandles: [],
    pendingClaims: [],
    marketActivities: [],
    lootbox: [],
    burnedTokens: [],
  };
}

/** Event-announced facts only fill in what the write set (absolute, final) does not show. */
function preferWriteSet<F extends CollectionFact | TokenDataFact>(
  fromWriteSet: F[],
  fromEvents: F[],
  key: (fact: F) => string,
): F[] {
  const seen = new Set(fromWriteSet.map(key));
  const result = [...fromWriteSet];
  for (const fact of fromEvents) {
    if (seen.has(key(fact))) continue;
    seen.add(key(fact));
    result.push(fact);
  }
  return result;
}
