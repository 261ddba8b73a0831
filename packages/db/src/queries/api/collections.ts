import type { CollectionFacts as CollectionFactsAnswer } from '@mdq/contracts';
import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../database';
import { executePrepared } from '../../prepared';
import { isNativeCoin, isSale } from '../market-rules';
import { iso } from './pagination';

export interface CollectionRef {
  collectionId: string;
  tokenStandard: 'v1' | 'v2';
  creator: string;
  collection: string;
  collectionUrl: string | null;
  lootboxId: number | null;
}

/** Collections named (creator, name): usually one; a v1 and a v2 collection may share the pair. */
export async function findCollections(db: Db, creator: string, name: string): Promise<CollectionRef[]> {
  const rows = await db
    .selectFrom('collections')
    .select(['collection_id', 'token_standard', 'creator_address', 'collection_name', 'uri', 'lootbox_id'])
    .where('creator_address', '=', creator)
    .where('collection_name', '=', name)
    .orderBy('created_version')
    .execute();
  return rows.map((r) => ({
    collectionId: r.collection_id,
    tokenStandard: r.token_standard,
    creator: r.creator_address,
    collection: r.collection_name,
    collectionUrl: r.uri,
    lootboxId: r.lootbox_id,
  }));
}

/** Collection ids matching optional name / creator filters (for balance and listing filters). */
export async function collectionIdsMatching(
  db: Db,
  filter: { name?: string | undefined; creator?: string | undefined; uri?: string | undefined },
): Promise<string[]> {
  let query = db.selectFrom('collections').select('collection_id');
  if (filter.name !== undefined) query = query.where('collection_name', '=', filter.name);
  if (filter.creator !== undefined) query = query.where('creator_address', '=', filter.creator);
  if (filter.uri !== undefined) query = query.where('uri', '=', filter.uri);
  const rows = await query.limit(1000).execute();
  return rows.map((r) => r.collection_id);
}

/** A collection's facts as read here: the API's answer but its lootbox, which the route adds. */
export type CollectionFacts = Omit<CollectionFactsAnswer, 'lootbox'>;

interface FactsRow {
  collection_id: string;
  token_standard: 'v1' | 'v2';
  creator_address: string;
  collection_name: string;
  description: string | null;
  uri: string | null;
  max_supply: string | null;
  owner_count: number;
  lootbox_id: number | null;
  created_at: Date;
  created_version: number;
  floor_price: string | null;
  listed_count: number;
  volume: string | null;
  sales: number;
  live_supply: string;
  minted_count: string;
}

export async function collectionFacts(db: Db, collectionId: string): Promise<CollectionFacts | null> {
  // Lookups and counts by the collection's id, from its indexes: one plan for every collection,
  // planned once per connection (planning took half as long as running).
  const rows = await executePrepared(
    db,
    sql<FactsRow>`
    SELECT c.collection_id, c.token_standard, c.creator_address, c.collection_name, c.description, c.uri,
           c.max_supply, c.owner_count, c.lootbox_id, c.created_at,
           c.created_version,
           (SELECT min(l.price) FROM listings l
             WHERE l.collection_id = c.collection_id AND l.status = 'active'
               AND ${isNativeCoin('l.coin_type')}) AS floor_price,
           (SELECT count(*)::int FROM listings l
             WHERE l.collection_id = c.collection_id AND l.status = 'active') AS listed_count,
           s.live_supply, s.minted_count, f.volume, f.sales
      FROM collections c
      -- Counted from tokens, not the collection row: v2 collections carry no maintained supply. One
      -- index-only pass of tokens_collection_name (it carries is_burned) gives both counts.
      CROSS JOIN LATERAL (
        SELECT count(*) FILTER (WHERE NOT t.is_burned)::text AS live_supply, count(*)::text AS minted_count
          FROM tokens t WHERE t.collection_id = c.collection_id
      ) s
      CROSS JOIN LATERAL (
        SELECT sum(m.price) AS volume, count(*)::int AS sales FROM marketplace_activities m
         WHERE m.collection_id = c.collection_id
           AND ${isSale('m.kind')}
           AND ${isNativeCoin('m.coin_type')}
      ) f
     WHERE c.collection_id = ${collectionId}`,
  );
  const r = rows[0];
  if (!r) return null;
  return {
    collectionId: r.collection_id,
    tokenStandard: r.token_standard,
    creator: r.creator_address,
    collection: r.collection_name,
    collectionUrl: r.uri,
    lootboxId: r.lootbox_id,
    description: r.description,
    currentSupply: r.live_supply,
    maxSupply: r.max_supply,
    totalMinted: r.minted_count,
    owners: r.owner_count,
    listedCount: r.listed_count,
    floorPrice: r.floor_price,
    volume: r.volume ?? '0',
    sales: r.sales,
    createdAt: iso(r.created_at),
    version: r.created_version,
  };
}

/** The live floor: lowest active listing of the collection in the native coin (a scalar subquery). */
export function collectionFloorSql(collectionId: RawBuilder<unknown>): RawBuilder<string | null> {
  return sql<string | null>`
    SELECT min(l.price)::text FROM listings l
     WHERE l.collection_id = ${collectionId} AND l.status = 'active' AND ${isNativeCoin('l.coin_type')}`;
}
