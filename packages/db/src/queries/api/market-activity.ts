import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../database';
import { isSale } from '../market-rules';
import { ACTIVITY_KEYS, toActivity } from './activity';
import { type ActivityEntry, type ActivityRow, activitySelect } from './activity-row';
import { fetchPage, iso, type Page, type PageRequest, type SortKey } from './pagination';
import { ofTokenCollection } from './token-collection';

const MARKET_COLUMNS = sql.raw(activitySelect('market'));

// Market lists read one table: its rows order by (version, index); the cursor keeps the timeline's
// three parts (source is always 'market'), of which the first two do the skipping.
const KEYS: SortKey[] = [
  { expr: sql`m.transaction_version`, dir: 'desc', kind: 'int' },
  { expr: sql`m.event_index`, dir: 'desc', kind: 'int' },
];

/**
 * A wallet's market activity as seller or buyer, newest first: two index scans (seller, buyer),
 * the second skipping rows the first already has, each cut at the page's reach.
 */
export function userMarketActivity(
  db: Db,
  address: string,
  request: PageRequest,
): Promise<Page<ActivityEntry>> {
  return fetchPage(
    db,
    {
      keys: ACTIVITY_KEYS,
      // One wallet's rows from its (wallet, version) indexes: the same plan for every wallet.
      prepared: true,
      rows: (p) => sql<ActivityRow>`
        SELECT * FROM (
          (SELECT ${MARKET_COLUMNS} FROM marketplace_activities m
            WHERE m.seller = ${address} AND ${p.after(KEYS)}
            ORDER BY m.transaction_version DESC, m.event_index DESC LIMIT ${p.reach})
          UNION ALL
          (SELECT ${MARKET_COLUMNS} FROM marketplace_activities m
            WHERE m.buyer = ${address} AND m.seller IS DISTINCT FROM ${address} AND ${p.after(KEYS)}
            ORDER BY m.transaction_version DESC, m.event_index DESC LIMIT ${p.reach})
        ) merged
        ORDER BY transaction_version DESC, event_index DESC ${p.window}`,
      count: sql`
        SELECT (SELECT count(*) FROM marketplace_activities m WHERE m.seller = ${address})::int
             + (SELECT count(*) FROM marketplace_activities m
                 WHERE m.buyer = ${address} AND m.seller IS DISTINCT FROM ${address})::int AS total`,
      map: toActivity,
    },
    request,
  );
}

/** A wallet's purchases (filled listings and accepted offers where it is the buyer), newest first. */
export function userPurchases(db: Db, address: string, request: PageRequest): Promise<Page<ActivityEntry>> {
  const where = sql`m.buyer = ${address} AND ${isSale('m.kind')}`;
  return fetchPage(
    db,
    {
      keys: ACTIVITY_KEYS,
      // One wallet's rows from its (wallet, version) indexes: the same plan for every wallet.
      prepared: true,
      rows: (p) => sql<ActivityRow>`
        SELECT ${MARKET_COLUMNS} FROM marketplace_activities m
         WHERE ${where} AND ${p.after(KEYS)}
         ORDER BY m.transaction_version DESC, m.event_index DESC ${p.window}`,
      count: sql`SELECT count(*)::int AS total FROM marketplace_activities m WHERE ${where}`,
      map: toActivity,
    },
    request,
  );
}

export interface Sale {
  price: string;
  coinType: string | null;
  seller: string | null;
  buyer: string | null;
  timestamp: string;
  version: number;
}

export interface SaleRow {
  price: string;
  coin_type: string | null;
  seller: string | null;
  buyer: string | null;
  transaction_timestamp: Date | string;
  transaction_version: number;
}

/** The token's most recent sales (price history), newest first (a subquery). */
export function recentSalesOfTokenSql(
  tokenId: string,
  collection: RawBuilder<unknown>,
  limit: number,
): RawBuilder<SaleRow> {
  return sql<SaleRow>`
    SELECT m.price::text AS price, m.coin_type, m.seller, m.buyer, m.transaction_timestamp, m.transaction_version
      FROM marketplace_activities m
     WHERE m.token_data_id = ${tokenId} AND ${isSale('m.kind')} AND ${ofTokenCollection('m.collection_id', collection)}
     ORDER BY m.transaction_version DESC, m.event_index DESC LIMIT ${limit}`;
}

export function toSale(r: SaleRow): Sale {
  return {
    price: r.price,
    coinType: r.coin_type,
    seller: r.seller,
    buyer: r.buyer,
    timestamp: iso(r.transaction_timestamp) ?? '',
    version: r.transaction_version,
  };
}
