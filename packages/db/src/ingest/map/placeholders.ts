import { type DecodedTransaction, v1CollectionId } from '@mdq/chain';
import type { CollectionPlaceholderRow, TokenPlaceholderRow } from '../types';
import { usToIso } from './time';

/*
 * History that starts mid-chain (MDQ_START_VERSION) meets tokens and collections created before
 * the start. Their creation is never seen, but the events that mention them carry what a row
 * needs: marketplace events name the token, its collection and creator; a v1 TokenId carries
 * (creator, collection, name), from which v1 ids are derived. Such a mention yields a placeholder
 * row, written only where no row exists yet (and filling a stored token's missing collection
 * names); the creation, mint or mutation facts, when seen, complete it.
 *
 * A placeholder is emitted at the batch's first mention of its entity, unless the batch already
 * has a real fact about it at or before that version: then the real fact creates the row, as it
 * would with any other cut into batches.
 */

interface Mention {
  tokenDataId: string | null;
  tokenStandard: 'v1' | 'v2' | null;
  collectionId: string | null;
  creatorAddress: string | null;
  collectionName: string | null;
  tokenName: string | null;
  version: number;
  timestampUs: string;
}

export function placeholders(decoded: readonly DecodedTransaction[]): {
  tokens: TokenPlaceholderRow[];
  collections: CollectionPlaceholderRow[];
} {
  const firstTokenFact = new Map<string, number>();
  const firstCollectionFact = new Map<string, number>();
  for (const tx of decoded) {
    for (const t of tx.tokens)
      if (!firstTokenFact.has(t.tokenDataId)) firstTokenFact.set(t.tokenDataId, t.version);
    for (const c of tx.collections) {
      // A supply-only fact never creates a collection row.
      if (c.collectionName === '' && c.creatorAddress === '') continue;
      if (!firstCollectionFact.has(c.collectionId)) firstCollectionFact.set(c.collectionId, c.version);
    }
  }
  const tokens = new Map<string, TokenPlaceholderRow>();
  const collections = new Map<string, CollectionPlaceholderRow>();
  for (const m of decoded.flatMap(mentions)) {
    const collectionId = m.collectionId ?? v1Collection(m);
    if (
      collectionId &&
      m.creatorAddress &&
      m.collectionName &&
      m.tokenStandard &&
      !collections.has(collectionId)
    ) {
      const real = firstCollectionFact.get(collectionId);
      if (real === undefined || real > m.version) {
        collections.set(collectionId, {
          collection_id: collectionId,
          token_standard: m.tokenStandard,
          creator_address: m.creatorAddress,
          collection_name: m.collectionName,
          created_at: usToIso(m.timestampUs),
          created_version: m.version,
          last_transaction_version: m.version,
        });
      }
    }
    if (m.tokenDataId && collectionId && m.tokenName && m.tokenStandard && !tokens.has(m.tokenDataId)) {
      const real = firstTokenFact.get(m.tokenDataId);
      if (real === undefined || real > m.version) {
        tokens.set(m.tokenDataId, {
          token_data_id: m.tokenDataId,
          token_standard: m.tokenStandard,
          collection_id: collectionId,
          creator_address: m.creatorAddress,
          collection_name: m.collectionName,
          token_name: m.tokenName,
          last_transaction_version: m.version,
        });
      }
    }
  }
  return { tokens: [...tokens.values()], collections: [...collections.values()] };
}

/** The entities a transaction's events name, in event order. */
function mentions(tx: DecodedTransaction): Mention[] {
  const out: Mention[] = [];
  for (const a of tx.tokenActivities) {
    if (!a.names) continue;
    out.push({
      tokenDataId: a.tokenDataId,
      tokenStandard: a.tokenStandard,
      collectionId: a.collectionId,
      ...a.names,
      version: a.version,
      timestampUs: a.timestampUs,
    });
  }
  for (const m of tx.marketActivities) {
    out.push({
      tokenDataId: m.tokenDataId,
      tokenStandard: m.tokenStandard,
      collectionId: m.collectionId,
      creatorAddress: m.creatorAddress,
      collectionName: m.collectionName,
      tokenName: m.tokenName,
      version: m.version,
      timestampUs: m.timestampUs,
    });
  }
  return out;
}

/** A v1 collection id follows from its creator and name. */
function v1Collection(m: Mention): string | null {
  return m.tokenStandard === 'v1' && m.creatorAddress && m.collectionName
    ? v1CollectionId(m.creatorAddress, m.collectionName)
    : null;
}
