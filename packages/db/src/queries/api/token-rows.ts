import type { TokenMetadataState as MetadataStateAnswer, TokenSummary } from '@mdq/contracts';
import { type RawBuilder, sql } from 'kysely';
import type { CollectionsTable, TokensTable } from '../../schema';
import { iso } from './pagination';
import type { ReadRow } from './read-row';

/**
 * The token columns every token list selects (alias t = tokens, c = collections). u64 numerics are
 * cast to text, so they read the same whether a row comes as a row or inside JSON (listing card).
 */
export const TOKEN_COLUMNS = sql`
  t.token_data_id, t.token_standard, t.token_name, t.collection_id,
  coalesce(t.creator_address, c.creator_address) AS creator_address,
  coalesce(t.collection_name, c.collection_name) AS collection_name,
  c.uri AS collection_uri, t.token_uri, t.description, t.supply::text AS supply, t.maximum::text AS maximum, t.is_burned,
  t.lootbox_id, t.lootbox_tier, t.minted_at, t.minted_version, t.last_transaction_version,
  (SELECT json_build_object('image', d.image, 'animation_url', d.animation_url, 'status', d.status,
            'error', d.error, 'fetched_at', d.fetched_at, 'valid', (d.report ->> 'valid')::boolean)
     FROM metadata_documents d WHERE d.kind = 'token' AND d.subject_id = t.token_data_id
      -- The crawler files a token's document under the token's collection. Stated so the page reads
      -- documents by collection (its cache key's counters), as a filter on the primary-key probe.
      AND (d.collection_id = t.collection_id) IS TRUE) AS document`;

/**
 * TOKEN_COLUMNS of a page of token rows already cut to its window (`page`, rows of `tokens`), in
 * `order`: each row's collection and document are read for the page's rows alone. Cut after them,
 * an offset's skipped rows had their document probed too (page 4 of a lootbox: 401 probes for 101
 * rows).
 */
export const tokenSummaryRows = (
  page: RawBuilder<unknown>,
  order: RawBuilder<unknown>,
): RawBuilder<TokenRecord> =>
  sql<TokenRecord>`
    SELECT ${TOKEN_COLUMNS} FROM (${page}) t LEFT JOIN collections c ON c.collection_id = t.collection_id
     ORDER BY ${order}`;

/** What token answers show of the crawled document (one primary-key probe per token). */
interface DocumentSummary {
  image: string | null;
  animation_url: string | null;
  status: 'ok' | 'error';
  error: string | null;
  fetched_at: string | Date;
  valid: boolean | null;
}

/** The columns TOKEN_COLUMNS reads, typed by the schema. */
export type TokenRecord = Pick<
  ReadRow<TokensTable>,
  | 'token_data_id'
  | 'token_standard'
  | 'token_name'
  | 'collection_id'
  | 'token_uri'
  | 'description'
  | 'supply'
  | 'maximum'
  | 'is_burned'
  | 'lootbox_id'
  | 'lootbox_tier'
  | 'minted_at'
  | 'minted_version'
  | 'last_transaction_version'
> & {
  /** The token's own, else its collection's. */
  creator_address: string | null;
  collection_name: string | null;
  collection_uri: ReadRow<CollectionsTable>['uri'];
  document: DocumentSummary | null;
};

/** The token's off-chain document as its answers show it; `pending` until the crawler has fetched it. */
export type TokenMetadataState = MetadataStateAnswer;

export function toTokenMetadataState(d: DocumentSummary | null): TokenMetadataState {
  if (!d) return { status: 'pending', error: null, fetchedAt: null, valid: null };
  return { status: d.status, error: d.error, fetchedAt: iso(d.fetched_at), valid: d.valid };
}

export type { TokenSummary };

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
    image: r.document?.image ?? null,
    animationUrl: r.document?.animation_url ?? null,
    metadata: toTokenMetadataState(r.document),
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
