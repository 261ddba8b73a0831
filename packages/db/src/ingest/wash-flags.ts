import { sql } from 'kysely';
import type { Db } from '../database';
import { isSale, isSaleKind } from '../queries/market-rules';
import type { IngestBatch } from './types';

/**
 * The wash-trade rules, described once (docs/API.md and docs/DECISIONS.md explain them):
 * - `self_trade`: buyer = seller;
 * - `round_trip`: the token went A -> B and B -> A (either order) within `windowDays`;
 * - `token_churn`: the token sold at least `churnSales` times within some `windowDays` window
 *   (every sale in such a window is flagged);
 * - `seller_funded`: in the sale's own transaction the seller paid the buyer at least the price.
 */
export const WASH_RULES = {
  windowDays: 7,
  churnSales: 3,
  reasons: ['self_trade', 'round_trip', 'token_churn', 'seller_funded'],
} as const;
export type WashReason = (typeof WASH_RULES.reasons)[number];

/*
 * Recomputes the flags of every sale whose rules can see a sale of this batch. A sale's flags depend
 * on the sales of its token up to `windowDays` either side (churn: a window starting up to
 * `windowDays` before it and ending up to `windowDays` after it), so the sales to update are those of
 * the batch's tokens from `windowDays` before the batch's first sale on, read with `2 * windowDays`
 * of context. The indexer writes in version order, so earlier sales get the flags later ones earn;
 * a replay computes the same flags. Runs in the batch's transaction.
 */
export async function refreshWashFlags(db: Db, batch: IngestBatch): Promise<number> {
  const sales = batch.marketActivities.filter((m) => isSaleKind(m.kind));
  if (sales.length === 0) return 0;
  const tokens = [
    ...new Set(sales.map((s) => s.token_data_id).filter((t): t is string => t !== null)),
  ].sort();
  // ISO timestamps sort as text.
  const first = sales.map((s) => s.transaction_timestamp).sort()[0] as string;
  const days = WASH_RULES.windowDays;
  const window = sql.lit(`${days} days`);
  const result = await sql`
    WITH s AS MATERIALIZED (
      SELECT transaction_version AS v, event_index AS i, token_data_id AS tok, seller, buyer,
             transaction_timestamp AS ts, seller_funded
        FROM marketplace_activities
       WHERE token_data_id = ANY(${tokens}::text[]) AND ${isSale('kind')}
         AND transaction_timestamp >= ${first}::timestamptz - ${sql.lit(`${2 * days} days`)}::interval
    ), starts AS (
      -- sales in the window that starts at each sale
      SELECT s.*, count(*) OVER (PARTITION BY tok ORDER BY ts
               RANGE BETWEEN CURRENT ROW AND ${window}::interval FOLLOWING) AS ahead
        FROM s
    ), churn AS (
      -- a sale is in a busy window when a window starting up to windowDays before it is busy
      SELECT v, i, max(ahead) OVER (PARTITION BY tok ORDER BY ts
               RANGE BETWEEN ${window}::interval PRECEDING AND CURRENT ROW) >= ${WASH_RULES.churnSales} AS busy
        FROM starts
    ), flags AS (
      SELECT s.v, s.i, array_remove(ARRAY[
               CASE WHEN s.seller = s.buyer THEN 'self_trade' END,
               CASE WHEN s.seller <> s.buyer AND EXISTS (
                 SELECT 1 FROM s o WHERE o.tok = s.tok AND o.seller = s.buyer AND o.buyer = s.seller
                    AND o.ts BETWEEN s.ts - ${window}::interval AND s.ts + ${window}::interval)
                 THEN 'round_trip' END,
               CASE WHEN c.busy THEN 'token_churn' END,
               CASE WHEN s.seller_funded THEN 'seller_funded' END
             ], NULL)::text[] AS reasons
        FROM s JOIN churn c ON c.v = s.v AND c.i = s.i
       WHERE s.ts >= ${first}::timestamptz - ${window}::interval
    )
    UPDATE marketplace_activities m SET wash_flags = f.reasons
      FROM flags f
     WHERE m.transaction_version = f.v AND m.event_index = f.i AND m.wash_flags IS DISTINCT FROM f.reasons
  `.execute(db);
  // Sales without a token id (rare adapters) can still be self trades or seller-funded.
  await sql`
    UPDATE marketplace_activities SET wash_flags = array_remove(ARRAY[
             CASE WHEN seller = buyer THEN 'self_trade' END,
             CASE WHEN seller_funded THEN 'seller_funded' END], NULL)::text[]
     WHERE (transaction_version, event_index) IN (
             SELECT * FROM unnest(${sales.filter((s) => s.token_data_id === null).map((s) => s.transaction_version)}::bigint[],
                                  ${sales.filter((s) => s.token_data_id === null).map((s) => s.event_index)}::int[]))
  `.execute(db);
  return Number(result.numAffectedRows ?? 0);
}
