import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../database';
import type { Database } from '../../schema/index';
import type { PartialCounter } from '../freshness';
import { type ActivityEntry, type ActivityRow, activitySelect } from './activity-row';
import { fetchPage, iso, type Page, type PageKey, type PageRequest, type SortKey } from './pagination';
import { ofTokenCollection } from './token-collection';

export type { ActivityEntry, ActivityRow } from './activity-row';

/**
 * What a token's timeline reads (token-history-by-tokenId, token/activity): both branches of the
 * activity union, and the token, its collection (its identity: name, creator, URI) and its document
 * for the entries' names and images. The response cache keys those routes on these tables (apps/api
 * test/read-tables.test.ts checks them).
 */
export const TOKEN_TIMELINE_TABLES = [
  'collections:identity',
  'marketplace_activities',
  'metadata_documents',
  'token_activities',
  'tokens',
] as const satisfies readonly (keyof Database | PartialCounter)[];

const TOKEN_SELECT = sql.raw(activitySelect('token'));
const MARKET_SELECT = sql.raw(activitySelect('market'));

function keys(version: string, index: string, source: string): SortKey[] {
  return [
    { expr: sql.raw(version), dir: 'desc', kind: 'int' },
    { expr: sql.raw(index), dir: 'desc', kind: 'int' },
    { expr: sql.lit(source), dir: 'desc', kind: 'text' },
  ];
}

/**
 * The sort key of every activity list, named by the merged rows' columns: newest first, token events
 * before market events of the same event. Market-only lists use its first two parts.
 */
export const ACTIVITY_KEYS: PageKey<ActivityRow>[] = [
  { expr: sql`transaction_version`, dir: 'desc', kind: 'int', field: 'transaction_version' },
  { expr: sql`event_index`, dir: 'desc', kind: 'int', field: 'event_index' },
  { expr: sql`source`, dir: 'desc', kind: 'text', field: 'source' },
];

/**
 * A token's full timeline, newest first: token_activities and marketplace_activities merged. Each
 * branch reads at most offset + limit + 1 rows from its (token_data_id, version DESC) index, so
 * the merge never sorts more than one page's worth per branch.
 */
export function tokenTimeline(
  db: Db,
  token: {
    /** The token's id, or a scalar subquery giving it (tokenIdOfName). */
    id: string | RawBuilder<string | null>;
    /** Its collection as a scalar subquery (storedCollectionOf, collectionIdOfName): the reads state it. */
    collection: RawBuilder<string | null>;
  },
  propertyVersion: string | null,
  request: PageRequest,
): Promise<Page<ActivityEntry>> {
  const tokenId = token.id;
  // The page keys on the token's collection (by its id or by the pair): its reads state it.
  const tokenPv = sql`${propertyVersion === null ? sql`true` : sql`a.property_version = ${propertyVersion}`} AND ${ofTokenCollection('a.collection_id', token.collection)}`;
  const marketPv = sql`${
    propertyVersion === null
      ? sql`true`
      : sql`(m.property_version IS NULL OR m.property_version = ${propertyVersion})`
  } AND ${ofTokenCollection('m.collection_id', token.collection)}`;
  return fetchPage(
    db,
    {
      keys: ACTIVITY_KEYS,
      rows: (p) => sql<ActivityRow>`
        SELECT * FROM (
          (SELECT ${TOKEN_SELECT}
             FROM token_activities a
            WHERE a.token_data_id = ${tokenId} AND ${tokenPv}
              AND ${p.after(keys('a.transaction_version', 'a.event_index', 'token'))}
            ORDER BY a.transaction_version DESC, a.event_index DESC LIMIT ${p.reach})
          UNION ALL
          (SELECT ${MARKET_SELECT}
             FROM marketplace_activities m
            WHERE m.token_data_id = ${tokenId} AND ${marketPv}
              AND ${p.after(keys('m.transaction_version', 'm.event_index', 'market'))}
            ORDER BY m.transaction_version DESC, m.event_index DESC LIMIT ${p.reach})
        ) merged
        ORDER BY ${p.order} ${p.window}`,
      count: sql`
        SELECT (SELECT count(*) FROM token_activities a WHERE a.token_data_id = ${tokenId} AND ${tokenPv})::int
             + (SELECT count(*) FROM marketplace_activities m WHERE m.token_data_id = ${tokenId} AND ${marketPv})::int
             AS total`,
      map: toActivity,
      // Index reads by one token's id: the plan never depends on which token.
      prepared: true,
    },
    request,
  );
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
