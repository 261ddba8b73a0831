import { sql } from 'kysely';
import { iso } from './pagination';

/** The token columns every token list selects (alias t = tokens, c = collections). */
export const TOKEN_COLUMNS = sql`
  t.token_data_id, t.token_standard, t.token_name, t.collection_id,
  coalesce(t.creator_address, c.creator_address) AS creator_address,
  coalesce(t.collection_name, c.collection_name) AS collection_name,
  c.uri AS collection_uri, t.token_uri, t.description, t.supply, t.maximum, t.is_burned,
  t.lootbox_id, t.lootbox_tier, t.minted_at, t.minted_version, t.last_transaction_version`;

export interface TokenRecord {
  token_data_id: string;
  token_standard: 'v1' | 'v2';
  token_name: string;
  collection_id: string;
  creator_address: string | null;
  collection_name: string | null;
  collection_uri: string | null;
  token_uri: string | null;
  description: string | null;
  supply: string | null;
  maximum: string | null;
  is_burned: boolean;
  lootbox_id: number | null;
  lootbox_tier: string | null;
  minted_at: Date | null;
  minted_version: number | null;
  last_transaction_version: number;
}

export interface TokenSummary {
  tokenId: string;
  tokenName: string;
  tokenStandard: 'v1' | 'v2';
  creator: string | null;
  collection: string | null;
  collectionId: string;
  collectionUrl: string | null;
  tokenUri: string | null;
  description: string | null;
  supply: string | null;
  maximum: string | null;
  isBurned: boolean;
  lootboxId: number | null;
  rarityTier: string | null;
  mintedAt: string | null;
  version: number;
}

export function toTokenSummary(r: TokenRecord): TokenSummary {
  return {
    tokenId: r.token_data_id,
    tokenName: r.token_name,
    tokenStandard: r.token_standard,
    creator: r.creator_address,
    collection: r.collection_name,
    collectionId: r.collection_id,
    collectionUrl: r.collection_uri,
    tokenUri: r.token_uri,
    description: r.description,
    supply: r.supply,
    maximum: r.maximum,
    isBurned: r.is_burned,
    lootboxId: r.lootbox_id,
    rarityTier: r.lootbox_tier,
    mintedAt: iso(r.minted_at),
    version: r.minted_version ?? r.last_transaction_version,
  };
}
