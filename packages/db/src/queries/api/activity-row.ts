import type { ActivityEntry } from '@mdq/contracts';
import type { ExportColumn, ExportType } from '../../export/export-column';
import type { MarketplaceActivitiesTable, TokenActivitiesTable } from '../../schema';
import { tokenPropertyVersion } from './property-version';
import type { ReadRow } from './read-row';

/** One entry of a token's timeline: a token event (mint, transfer, burn…) or a market event. */
export type { ActivityEntry };

type Token = ReadRow<TokenActivitiesTable>;
type Market = ReadRow<MarketplaceActivitiesTable>;

/**
 * A row of the activity union (token_activities and marketplace_activities in one shape), typed by
 * the schema: each column has the type of the source columns it is read from, or null where a
 * source has none.
 */
export interface ActivityRow {
  source: 'token' | 'market';
  transaction_version: Token['transaction_version'] | Market['transaction_version'];
  event_index: Token['event_index'] | Market['event_index'];
  kind: Token['kind'] | Market['kind'];
  token_data_id: Token['token_data_id'] | Market['token_data_id'];
  token_standard: Token['token_standard'] | Market['token_standard'];
  property_version: Token['property_version'] | Market['property_version'];
  collection_id: Token['collection_id'] | Market['collection_id'];
  from_address: Token['from_address'] | null;
  to_address: Token['to_address'] | null;
  seller: Market['seller'] | null;
  buyer: Market['buyer'] | null;
  price: Market['price'] | null;
  coin_type: Market['coin_type'] | null;
  quantity: Token['amount'] | Market['token_amount'];
  marketplace: Market['marketplace'] | null;
  transaction_timestamp: Token['transaction_timestamp'] | Market['transaction_timestamp'];
  flags: Market['wash_flags'] | null;
}

/** Where a union column comes from in one branch: a column of its table, a tag, or a typed NULL. */
type Source<Alias extends string, Row> =
  | `${Alias}.${keyof Row & string}`
  | ReturnType<typeof tokenPropertyVersion<Alias>>
  | `'${string}'`
  | `NULL::${'text' | 'numeric' | 'text[]'}`;

interface UnionColumn {
  /** In the token branch (`token_activities a`). */
  token: Source<'a', Token>;
  /** In the market branch (`marketplace_activities m`). */
  market: Source<'m', Market>;
  /** The API's field (ActivityEntry) and how the export writes it. */
  field: keyof ActivityEntry;
  type: ExportType;
  /** The export's SQL over the union `x`, when not the column itself. */
  exportExpr?: string;
}

/** A column both tables have under the same name. */
const both = <C extends keyof Token & keyof Market & string, F extends keyof ActivityEntry>(
  column: C,
  field: F,
  type: ExportType,
) => ({ token: `a.${column}` as const, market: `m.${column}` as const, field, type });

/**
 * The one description of the activity union: the API's activity lists (token timeline, a
 * wallet's market activity and purchases), the feed's row type and the `activities` export all
 * read these columns. In export order. A column of ActivityRow missing here, or an API field
 * without a column, fails the typecheck.
 */
const ACTIVITY_COLUMNS = {
  transaction_version: both('transaction_version', 'version', 'int'),
  event_index: both('event_index', 'eventIndex', 'int'),
  source: { token: "'token'", market: "'market'", field: 'source', type: 'text' },
  kind: both('kind', 'kind', 'text'),
  token_data_id: both('token_data_id', 'tokenId', 'text'),
  token_standard: both('token_standard', 'tokenStandard', 'text'),
  // 0 for a v2 token, as the ownership and token activity rows hold it (property-version.ts).
  property_version: {
    token: 'a.property_version',
    market: tokenPropertyVersion('m'),
    field: 'propertyVersion',
    type: 'u64',
  },
  collection_id: both('collection_id', 'collectionId', 'text'),
  from_address: { token: 'a.from_address', market: 'NULL::text', field: 'from', type: 'text' },
  to_address: { token: 'a.to_address', market: 'NULL::text', field: 'to', type: 'text' },
  seller: { token: 'NULL::text', market: 'm.seller', field: 'seller', type: 'text' },
  buyer: { token: 'NULL::text', market: 'm.buyer', field: 'buyer', type: 'text' },
  price: { token: 'NULL::numeric', market: 'm.price', field: 'price', type: 'u64' },
  coin_type: { token: 'NULL::text', market: 'm.coin_type', field: 'coinType', type: 'text' },
  quantity: { token: 'a.amount', market: 'm.token_amount', field: 'quantity', type: 'u64' },
  marketplace: { token: 'NULL::text', market: 'm.marketplace', field: 'marketplace', type: 'text' },
  transaction_timestamp: both('transaction_timestamp', 'timestamp', 'time'),
  // Wash-trade flags of a sale ([] when none or not a sale), as on the API's activity entries.
  flags: {
    token: 'NULL::text[]',
    market: 'm.wash_flags',
    field: 'flags',
    type: 'json',
    exportExpr: "to_jsonb(coalesce(x.flags, '{}'::text[]))",
  },
} as const satisfies { [K in keyof ActivityRow]: UnionColumn };

type Described = (typeof ACTIVITY_COLUMNS)[keyof typeof ACTIVITY_COLUMNS];
// Every field of an API activity entry is carried by a column (so the export has it too).
type Uncovered = Exclude<keyof ActivityEntry, Described['field']>;
const everyFieldCovered: [Uncovered] extends [never] ? true : Uncovered = true;
void everyFieldCovered;

const ENTRIES = Object.entries(ACTIVITY_COLUMNS) as [keyof ActivityRow, UnionColumn][];

/** The select list of one branch of the union (trusted SQL written here), every column named. */
export function activitySelect(branch: 'token' | 'market'): string {
  return ENTRIES.map(([name, c]) => `${c[branch]} AS ${name}`).join(', ');
}

/** The whole union, unordered and unfiltered: the `activities` export reads it as `x`. */
export const ACTIVITY_UNION = `SELECT ${activitySelect('token')} FROM token_activities a
   UNION ALL SELECT ${activitySelect('market')} FROM marketplace_activities m`;

/** The export's columns of the union: the API's field names, in the description's order. */
export const ACTIVITY_EXPORT_COLUMNS: readonly ExportColumn[] = ENTRIES.map(([name, c]) => ({
  name: c.field,
  expr: c.exportExpr ?? `x.${name}`,
  type: c.type,
}));
