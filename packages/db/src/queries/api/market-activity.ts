import { sql } from 'kysely';
import type { Db } from '../../database';
import { type ActivityEntry, type ActivityRow, activityKey, toActivity } from './activity';
import {
  decodeCursor,
  iso,
  keysetAfter,
  offsetOf,
  type Page,
  type PageRequest,
  type SortKey,
  toPage,
} from './pagination';

const FILLS = sql`('fill_listing', 'fill_token_offer', 'fill_collection_offer')`;

const MARKET_COLUMNS = sql`'market' AS source, m.transaction_version, m.event_index, m.kind, m.token_data_id,
  m.token_standard, m.property_version, m.collection_id, NULL::text AS from_address, NULL::text AS to_address,
  m.seller, m.buyer, m.price, m.coin_type, m.token_amount AS quantity, m.marketplace, m.transaction_timestamp, m.wash_flags AS flags`;

const KEYS: SortKey[] = [
  { expr: sql`m.transaction_version`, dir: 'desc', kind: 'int' },
  { expr: sql`m.event_index`, dir: 'desc', kind: 'int' },
];

function after(request: PageRequest) {
  if (!request.cursor) return sql`true`;
  // Cursors of market lists carry the same 3-part key as the token timeline (source is 'market').
  const [version, index] = decodeCursor(request.cursor, ['int', 'int', 'text']);
  return keysetAfter(KEYS, [version ?? 0, index ?? 0]);
}

/**
 * A wallet's market activity as seller or buyer, newest first: two index scans (seller, buyer),
 * the second skipping rows the first already has, each cut at the page's reach.
 */
export async function userMarketActivity(
  db: Db,
  address: string,
  request: PageRequest,
): Promise<Page<ActivityEntry>> {
  const reach = offsetOf(request) + request.limit + 1;
  const [{ rows }, { rows: count }] = await Promise.all([
    sql<ActivityRow>`
      SELECT * FROM (
        (SELECT ${MARKET_COLUMNS} FROM marketplace_activities m
          WHERE m.seller = ${address} AND ${after(request)}
          ORDER BY m.transaction_version DESC, m.event_index DESC LIMIT ${reach})
        UNION ALL
        (SELECT ${MARKET_COLUMNS} FROM marketplace_activities m
          WHERE m.buyer = ${address} AND m.seller IS DISTINCT FROM ${address} AND ${after(request)}
          ORDER BY m.transaction_version DESC, m.event_index DESC LIMIT ${reach})
      ) merged
      ORDER BY transaction_version DESC, event_index DESC
      LIMIT ${request.limit + 1} OFFSET ${offsetOf(request)}`.execute(db),
    sql<{ total: number }>`
      SELECT (SELECT count(*) FROM marketplace_activities m WHERE m.seller = ${address})::int
           + (SELECT count(*) FROM marketplace_activities m
               WHERE m.buyer = ${address} AND m.seller IS DISTINCT FROM ${address})::int AS total`.execute(
      db,
    ),
  ]);
  return toPage(rows, request, count[0]?.total ?? 0, activityKey, toActivity);
}

/** A wallet's purchases (filled listings and accepted offers where it is the buyer), newest first. */
export async function userPurchases(
  db: Db,
  address: string,
  request: PageRequest,
): Promise<Page<ActivityEntry>> {
  const where = sql`m.buyer = ${address} AND m.kind IN ${FILLS}`;
  const [{ rows }, { rows: count }] = await Promise.all([
    sql<ActivityRow>`
      SELECT ${MARKET_COLUMNS} FROM marketplace_activities m
       WHERE ${where} AND ${after(request)}
       ORDER BY m.transaction_version DESC, m.event_index DESC
       LIMIT ${request.limit + 1} OFFSET ${offsetOf(request)}`.execute(db),
    sql<{
      total: number;
    }>`SELECT count(*)::int AS total FROM marketplace_activities m WHERE ${where}`.execute(db),
  ]);
  return toPage(rows, request, count[0]?.total ?? 0, activityKey, toActivity);
}

export interface Sale {
  price: string;
  coinType: string | null;
  seller: string | null;
  buyer: string | null;
  timestamp: string;
  version: number;
}

/** The token's most recent sales (price history), newest first. */
export async function recentSalesOfToken(db: Db, tokenId: string, limit: number): Promise<Sale[]> {
  const { rows } = await sql<{
    price: string;
    coin_type: string | null;
    seller: string | null;
    buyer: string | null;
    transaction_timestamp: Date;
    transaction_version: number;
  }>`
    SELECT m.price, m.coin_type, m.seller, m.buyer, m.transaction_timestamp, m.transaction_version
      FROM marketplace_activities m
     WHERE m.token_data_id = ${tokenId} AND m.kind IN ${FILLS}
     ORDER BY m.transaction_version DESC, m.event_index DESC LIMIT ${limit}`.execute(db);
  return rows.map((r) => ({
    price: r.price,
    coinType: r.coin_type,
    seller: r.seller,
    buyer: r.buyer,
    timestamp: iso(r.transaction_timestamp) ?? '',
    version: r.transaction_version,
  }));
}
