import type { Lootbox, LootboxDetail, Revenue, LootboxTier as Tier, TokenRarity } from '@mdq/contracts';
import { type RawBuilder, type Selectable, sql } from 'kysely';
import type { Db } from '../../database';
import { executePrepared } from '../../prepared';
import type { LootboxesTable } from '../../schema';
import {
  type CollectionSet,
  collectionIdArray,
  fetchPage,
  iso,
  type Page,
  type PageKey,
  type PageRequest,
  perCollection,
} from './pagination';

export type LootboxStatus = 'upcoming' | 'active' | 'sold_out' | 'ended';

export type LootboxTier = Tier;

export type { Lootbox };

/** A lootboxes row as stored (every read selects all of its columns). */
type LootboxRow = Selectable<LootboxesTable>;

/**
 * docs/API.md, "Lootbox status": upcoming before mint start; sold out once purchases (or reveals) reach max supply;
 * ended after mint end; active otherwise. A paused lootbox keeps its status and says `paused`.
 */
export function lootboxStatus(
  r: Pick<LootboxRow, 'mint_start' | 'mint_end' | 'max_supply' | 'minted' | 'purchased'>,
  now: Date,
): LootboxStatus {
  if (now < r.mint_start) return 'upcoming';
  const sold = BigInt(r.purchased) > BigInt(r.minted) ? BigInt(r.purchased) : BigInt(r.minted);
  if (BigInt(r.max_supply) > 0n && sold >= BigInt(r.max_supply)) return 'sold_out';
  if (r.mint_end && now >= r.mint_end) return 'ended';
  return 'active';
}

/**
 * When the status lootboxStatus gives at `now` can next change with the clock alone (mint start,
 * then mint end), in epoch ms; null when it cannot. Supply changes are writes, not the clock.
 */
export function lootboxStatusChangesAt(
  lootbox: Pick<Lootbox, 'mintStart' | 'mintEnd'>,
  now: Date,
): number | null {
  const start = Date.parse(lootbox.mintStart);
  if (now.getTime() < start) return start;
  const end = lootbox.mintEnd === null ? null : Date.parse(lootbox.mintEnd);
  return end !== null && now.getTime() < end ? end : null;
}

export function toLootbox(r: LootboxRow, now = new Date()): Lootbox {
  return {
    lootboxId: r.lootbox_id,
    creator: r.creator_address,
    collection: r.collection_name,
    collectionId: r.collection_id,
    price: r.price,
    coinType: r.coin_type,
    maxSupply: r.max_supply,
    minted: r.minted,
    purchased: r.purchased,
    revenue: r.revenue,
    mintStart: iso(r.mint_start) ?? '',
    mintEnd: iso(r.mint_end),
    paused: r.paused,
    status: lootboxStatus(r, now),
    createdAt: iso(r.created_at) ?? '',
    version: r.created_version,
  };
}

/** Which lootbox: its id, or (creator, collection name) — the newest when a creator reused a name. */
export type LootboxKey = { lootboxId: number } | { creator: string; collection: string };

/**
 * A lootbox row's columns, named: a prepared statement that selects `*` fails with "cached plan
 * must not change result type" once a migration adds a column, on every connection that prepared
 * it before (a rolling deploy's old processes); a named list keeps its result as it was.
 */
export const LOOTBOX_COLUMNS = [
  'lootbox_id',
  'creator_address',
  'collection_name',
  'collection_id',
  'price',
  'coin_type',
  'max_supply',
  'mint_start',
  'mint_end',
  'paused',
  'minted',
  'purchased',
  'revenue',
  'created_at',
  'created_version',
  'last_transaction_version',
] as const satisfies readonly (keyof LootboxesTable)[];

/** The lootbox row of a key (at most one). */
function lootboxOf(db: Db, key: LootboxKey) {
  const all = db.selectFrom('lootboxes').select(LOOTBOX_COLUMNS);
  return 'lootboxId' in key
    ? all.where('lootbox_id', '=', key.lootboxId)
    : all
        .where('creator_address', '=', key.creator)
        .where('collection_name', '=', key.collection)
        .orderBy('lootbox_id', 'desc')
        .limit(1);
}

/**
 * The lootbox's id as a scalar subquery (null when there is none), for a statement that reads by it:
 * the lookup and the read then cost one round trip.
 */
export function lootboxIdOf(db: Db, key: LootboxKey): RawBuilder<number | null> {
  return sql<number | null>`(${lootboxOf(db, key).clearSelect().select('lootbox_id')})`;
}

/** The lootbox `query` finds (at most one row), as the API shows it at `now`. */
async function firstLootbox(db: Db, query: ReturnType<typeof lootboxOf>, now: Date): Promise<Lootbox | null> {
  const [row] = await executePrepared(db, query);
  return row ? toLootbox(row, now) : null;
}

export function findLootboxById(db: Db, lootboxId: number, now = new Date()): Promise<Lootbox | null> {
  return firstLootbox(db, lootboxOf(db, { lootboxId }), now);
}

/**
 * The newest lootbox of (creator, collection name) whose collection is one of that pair's (the
 * collections named so by that creator): what a page keyed on the pair's collections may read, since
 * each such lootbox row is counted by its collection (`lootboxes`' per-collection counters). A
 * lootbox's collection is the pair's on every chain mdq has seen; one that is not (or whose
 * collection is not indexed yet) is not found here, and its page takes findLootbox instead.
 */
export function findLootboxOfPairCollection(
  db: Db,
  creator: string,
  collection: string,
  now = new Date(),
): Promise<Lootbox | null> {
  const pairIds = collectionIdArray({ creator, name: collection });
  return firstLootbox(
    db,
    lootboxOf(db, { creator, collection }).where('collection_id', '=', sql<string>`ANY(${pairIds})`),
    now,
  );
}

/** The lootbox of (creator, collection name); the newest when a creator reused a name. */
export function findLootbox(
  db: Db,
  creator: string,
  collection: string,
  now = new Date(),
): Promise<Lootbox | null> {
  return firstLootbox(db, lootboxOf(db, { creator, collection }), now);
}

interface TierRow {
  tier_name: string;
  position: number;
  weight: string;
  max_supply: string;
  minted: string;
}

/** A lootbox's tiers by position as one JSON array column (u64 numerics as text, as a row reads them). */
const tiersJson = sql<TierRow[]>`(
  SELECT coalesce(json_agg(json_build_object('tier_name', t.tier_name, 'position', t.position,
           'weight', t.weight::text, 'max_supply', t.max_supply::text, 'minted', t.minted::text)
         ORDER BY t.position), '[]')
    FROM lootbox_tiers t WHERE t.lootbox_id = lootboxes.lootbox_id)`;

function toTiers(rows: TierRow[]): LootboxTier[] {
  const total = rows.reduce((sum, r) => sum + BigInt(r.weight), 0n);
  return rows.map((r) => ({
    name: r.tier_name,
    position: r.position,
    weight: r.weight,
    // Weights are u64: divide in bigint at 1e-6 precision, then as a number.
    probability: total > 0n ? Number((BigInt(r.weight) * 1_000_000n) / total) / 1_000_000 : 0,
    maxSupply: r.max_supply,
    minted: r.minted,
  }));
}

export type LootboxWithTiers = LootboxDetail;

/** A lootbox with its tier table, in one statement; null when there is no such lootbox. */
export async function findLootboxWithTiers(
  db: Db,
  key: LootboxKey,
  now = new Date(),
): Promise<LootboxWithTiers | null> {
  // A lookup by id or name with its tiers by the lootbox's id: prepared, planned once per connection.
  const [row] = await executePrepared(db, lootboxOf(db, key).select(tiersJson.as('tiers')));
  return row ? { ...toLootbox(row, now), tiers: toTiers(row.tiers) } : null;
}

export type Timeframe = '24h' | '7d' | '30d' | 'all';

export const TIMEFRAME_HOURS: Record<Exclude<Timeframe, 'all'>, number> = {
  '24h': 24,
  '7d': 168,
  '30d': 720,
};

export type LootboxRevenue = Revenue;

/**
 * A lootbox's revenue per payment coin over a window ending at `now`, found and summed in one
 * statement; null when there is no such lootbox. The window's whole UTC days come from the kept
 * per-day sums (lootbox_revenue_days), its partial first and last days from the purchases
 * themselves (revenueParts), so the cost is the window's days plus two days' purchases, not every
 * purchase in it.
 */
export async function lootboxRevenue(
  db: Db,
  key: LootboxKey,
  timeframe: Timeframe,
  now = new Date(),
): Promise<LootboxRevenue | null> {
  const from = timeframe === 'all' ? null : new Date(now.getTime() - TIMEFRAME_HOURS[timeframe] * 3_600_000);
  const parts = revenueParts(from, now);
  const id = sql`lootboxes.lootbox_id`;
  const branches = [
    ...(parts.days
      ? [
          sql`SELECT d.coin_type, d.amount, d.purchases, d.quantity FROM lootbox_revenue_days d
               WHERE d.lootbox_id = ${id}
                 ${parts.days.from ? sql`AND d.day >= ${parts.days.from}::date` : sql``}
                 AND d.day < ${parts.days.to}::date`,
        ]
      : []),
    ...parts.purchases.map(
      (range) =>
        sql`SELECT p.coin_type, p.amount_paid, 1, p.quantity FROM lootbox_purchases p
             WHERE p.lootbox_id = ${id} AND p.transaction_timestamp >= ${range.from}
               AND p.transaction_timestamp ${range.through ? sql`<=` : sql`<`} ${range.to}`,
    ),
  ];
  const row = await lootboxOf(db, key)
    .clearSelect()
    .select([
      'lootbox_id',
      sql<{ coin_type: string; amount: string; purchases: number; quantity: string }[]>`(
        SELECT coalesce(json_agg(r ORDER BY r.coin_type), '[]') FROM (
          SELECT x.coin_type, sum(x.amount)::text AS amount, sum(x.purchases)::int AS purchases,
                 sum(x.quantity)::text AS quantity
            FROM (${sql.join(branches, sql` UNION ALL `)}) x (coin_type, amount, purchases, quantity)
           GROUP BY x.coin_type
          -- A day whose purchases were all deleted keeps a zero row; a coin with none in the window is absent.
          HAVING sum(x.purchases) > 0) r)`.as('revenue'),
    ])
    .executeTakeFirst();
  if (!row) return null;
  return {
    lootboxId: row.lootbox_id,
    timeframe,
    from: iso(from),
    to: now.toISOString(),
    revenue: row.revenue.map((r) => ({
      coinType: r.coin_type,
      amount: r.amount,
      purchases: r.purchases,
      quantity: r.quantity,
    })),
  };
}

const DAY_MS = 86_400_000;

/** `YYYY-MM-DD` of the UTC day starting at `ms` (a multiple of DAY_MS). */
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * The window [from, now] (from null: since the first purchase) as whole UTC days [days.from,
 * days.to) read from the kept sums, and the purchase time ranges around them: before the first
 * whole day (from its start `from`) and from the last midnight through `now`. A window shorter
 * than its days (both ends in one day or adjacent ones) is one purchase range.
 */
function revenueParts(
  from: Date | null,
  now: Date,
): {
  days: { from: string | null; to: string } | null;
  purchases: { from: Date; to: Date; through: boolean }[];
} {
  const today = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  if (from === null) {
    return {
      days: { from: null, to: dayOf(today) },
      purchases: [{ from: new Date(today), to: now, through: true }],
    };
  }
  const firstWhole = Math.ceil(from.getTime() / DAY_MS) * DAY_MS;
  if (firstWhole >= today) return { days: null, purchases: [{ from, to: now, through: true }] };
  return {
    days: { from: dayOf(firstWhole), to: dayOf(today) },
    purchases: [
      { from, to: new Date(firstWhole), through: false },
      { from: new Date(today), to: now, through: true },
    ],
  };
}

export type TokenRarityEntry = TokenRarity;

interface RarityRow {
  token_data_id: string;
  token_name: string | null;
  collection_id: string;
  rank: number;
  score: number;
  trait_count: number;
  computed_at: Date;
}

const RARITY_KEYS: PageKey<RarityRow>[] = [
  { expr: sql`r.rank`, dir: 'asc', kind: 'int', field: 'rank' },
  { expr: sql`r.token_data_id`, dir: 'asc', kind: 'text', field: 'token_data_id' },
];

/**
 * The worker's OpenRarity rows of collections, rarest first: each collection's rows are an
 * index-only range of its (collection, rank) index (which carries the whole row), and token names
 * are joined to the page's rows only, not to every row up to the page's reach.
 */
export function raritiesOfCollections(
  db: Db,
  collections: CollectionSet,
  request: PageRequest,
): Promise<Page<TokenRarityEntry>> {
  return fetchPage(
    db,
    {
      keys: RARITY_KEYS,
      // Each collection's rarity ranks from its rank index: one plan for every collection.
      prepared: true,
      rows: (p) => sql<RarityRow>`
        SELECT r.token_data_id, t.token_name, r.collection_id, r.rank, r.score, r.trait_count, r.computed_at
          FROM (SELECT r.* FROM ${perCollection(
            collections,
            (id) => sql`
              SELECT r.token_data_id, r.collection_id, r.rank, r.score, r.trait_count, r.computed_at
                FROM token_rarity r WHERE r.collection_id = ${id} AND ${p.after()}
               ORDER BY ${p.order} LIMIT ${p.reach}`,
          )} r ORDER BY ${p.order} ${p.window}) r
          -- The token's own collection, always its rarity row's: stated so that the statement reads
          -- tokens by collection, and the page's cache key needs only its collections' counters.
          LEFT JOIN tokens t ON t.token_data_id = r.token_data_id AND t.collection_id = r.collection_id
         ORDER BY ${p.order}`,
      // Kept by token_rarity's triggers (migration 2026-12-16T1000): a few rows, where counting the
      // rarity rows read the whole collection's and, while the worker rewrote them, their dead versions.
      count: sql`SELECT COALESCE(sum(t.ranked), 0)::int AS total FROM collection_rarity_totals t
                  WHERE t.collection_id = ANY(${collectionIdArray(collections)})`,
      map: (r) => ({
        tokenId: r.token_data_id,
        tokenName: r.token_name,
        collectionId: r.collection_id,
        rank: r.rank,
        score: r.score,
        traitCount: r.trait_count,
        computedAt: iso(r.computed_at) ?? '',
      }),
    },
    request,
  );
}
