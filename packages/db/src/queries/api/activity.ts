import { sql } from 'kysely';
import type { Db } from '../../database';
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

/** One entry of a token's timeline: a token event (mint, transfer, burn…) or a market event. */
export interface ActivityEntry {
  source: 'token' | 'market';
  kind: string;
  tokenId: string | null;
  tokenStandard: string | null;
  propertyVersion: string | null;
  collectionId: string | null;
  /** Token events: sender / receiver; market events: null. */
  from: string | null;
  to: string | null;
  /** Market events: seller / buyer; token events: null. */
  seller: string | null;
  buyer: string | null;
  price: string | null;
  coinType: string | null;
  quantity: string;
  marketplace: string | null;
  timestamp: string;
  version: number;
  eventIndex: number;
  /** Wash-trade reasons of a sale (see WASH_RULES); empty for clean sales and other events. */
  flags: string[];
}

interface ActivityRow {
  source: 'token' | 'market';
  transaction_version: number;
  event_index: number;
  kind: string;
  token_data_id: string | null;
  token_standard: string | null;
  property_version: string | null;
  collection_id: string | null;
  from_address: string | null;
  to_address: string | null;
  seller: string | null;
  buyer: string | null;
  price: string | null;
  coin_type: string | null;
  quantity: string;
  marketplace: string | null;
  transaction_timestamp: Date;
  flags: string[] | null;
}

function keys(version: string, index: string, source: string): SortKey[] {
  return [
    { expr: sql.raw(version), dir: 'desc', kind: 'int' },
    { expr: sql.raw(index), dir: 'desc', kind: 'int' },
    { expr: sql.lit(source), dir: 'desc', kind: 'text' },
  ];
}

/**
 * A token's full timeline, newest first: token_activities and marketplace_activities merged. Each
 * branch reads at most offset + limit + 1 rows from its (token_data_id, version DESC) index, so
 * the merge never sorts more than one page's worth per branch.
 */
export async function tokenTimeline(
  db: Db,
  tokenId: string,
  propertyVersion: string | null,
  request: PageRequest,
): Promise<Page<ActivityEntry>> {
  const cursor = request.cursor ? decodeCursor(request.cursor, ['int', 'int', 'text']) : null;
  const tokenAfter = cursor
    ? keysetAfter(keys('a.transaction_version', 'a.event_index', 'token'), cursor)
    : sql`true`;
  const marketAfter = cursor
    ? keysetAfter(keys('m.transaction_version', 'm.event_index', 'market'), cursor)
    : sql`true`;
  const tokenPv = propertyVersion === null ? sql`true` : sql`a.property_version = ${propertyVersion}`;
  const marketPv =
    propertyVersion === null
      ? sql`true`
      : sql`(m.property_version IS NULL OR m.property_version = ${propertyVersion})`;
  const reach = offsetOf(request) + request.limit + 1;
  const [{ rows }, { rows: count }] = await Promise.all([
    sql<ActivityRow>`
      SELECT * FROM (
        (SELECT 'token' AS source, a.transaction_version, a.event_index, a.kind, a.token_data_id,
                a.token_standard, a.property_version, a.collection_id, a.from_address, a.to_address,
                NULL::text AS seller, NULL::text AS buyer, NULL::numeric AS price, NULL::text AS coin_type,
                a.amount AS quantity, NULL::text AS marketplace, a.transaction_timestamp, NULL::text[] AS flags
           FROM token_activities a
          WHERE a.token_data_id = ${tokenId} AND ${tokenPv} AND ${tokenAfter}
          ORDER BY a.transaction_version DESC, a.event_index DESC LIMIT ${reach})
        UNION ALL
        (SELECT 'market', m.transaction_version, m.event_index, m.kind, m.token_data_id, m.token_standard,
                m.property_version, m.collection_id, NULL, NULL, m.seller, m.buyer, m.price, m.coin_type,
                m.token_amount, m.marketplace, m.transaction_timestamp, m.wash_flags
           FROM marketplace_activities m
          WHERE m.token_data_id = ${tokenId} AND ${marketPv} AND ${marketAfter}
          ORDER BY m.transaction_version DESC, m.event_index DESC LIMIT ${reach})
      ) merged
      ORDER BY transaction_version DESC, event_index DESC, source DESC
      LIMIT ${request.limit + 1} OFFSET ${offsetOf(request)}`.execute(db),
    sql<{ total: number }>`
      SELECT (SELECT count(*) FROM token_activities a WHERE a.token_data_id = ${tokenId} AND ${tokenPv})::int
           + (SELECT count(*) FROM marketplace_activities m WHERE m.token_data_id = ${tokenId} AND ${marketPv})::int
           AS total`.execute(db),
  ]);
  return toPage(rows, request, count[0]?.total ?? 0, activityKey, toActivity);
}

export function activityKey(r: { transaction_version: number; event_index: number; source: string }) {
  return [r.transaction_version, r.event_index, r.source];
}

export function toActivity(r: ActivityRow): ActivityEntry {
  return {
    source: r.source,
    kind: r.kind,
    tokenId: r.token_data_id,
    tokenStandard: r.token_standard,
    propertyVersion: r.property_version,
    collectionId: r.collection_id,
    from: r.from_address,
    to: r.to_address,
    seller: r.seller,
    buyer: r.buyer,
    price: r.price,
    coinType: r.coin_type,
    quantity: r.quantity,
    marketplace: r.marketplace,
    timestamp: iso(r.transaction_timestamp) ?? '',
    version: r.transaction_version,
    eventIndex: r.event_index,
    flags: r.flags ?? [],
  };
}

export type { ActivityRow };
