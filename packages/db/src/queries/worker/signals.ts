import { sql } from 'kysely';
import type { Db } from '../../database';

export interface SocialSignal {
  collectionId: string;
  /** UTC calendar day, YYYY-MM-DD. */
  observedOn: string;
  engagement: number;
  source: string | null;
}

/** Upserts operator-fed engagement; a second load of the same day replaces the value. */
export async function upsertSocialSignals(db: Db, signals: readonly SocialSignal[]): Promise<number> {
  const byKey = new Map<string, SocialSignal>();
  for (const s of signals) byKey.set(`${s.collectionId}|${s.observedOn}`, s);
  const rows = [...byKey.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, s]) => ({
      collection_id: s.collectionId,
      observed_on: s.observedOn,
      engagement: s.engagement,
      source: s.source,
    }));
  let written = 0;
  // One statement per 10k rows keeps a big file from building one enormous statement.
  for (let i = 0; i < rows.length; i += 10_000) {
    const chunk = rows.slice(i, i + 10_000);
    const result = await sql`
      INSERT INTO social_signals (collection_id, observed_on, engagement, source)
      SELECT * FROM unnest(${chunk.map((r) => r.collection_id)}::text[], ${chunk.map((r) => r.observed_on)}::date[],
                           ${chunk.map((r) => r.engagement)}::float8[], ${chunk.map((r) => r.source)}::text[])
      ON CONFLICT (collection_id, observed_on) DO UPDATE SET engagement = excluded.engagement, source = excluded.source
    `.execute(db);
    written += Number(result.numAffectedRows ?? 0);
  }
  return written;
}

/**
 * Engagement per collection summed over the UTC days the window touches (from's day to to's day,
 * inclusive). Collections without a row are absent from the map: they have no signal.
 */
export async function loadEngagement(
  db: Db,
  collectionIds: readonly string[],
  from: Date,
  to: Date,
): Promise<Map<string, number>> {
  if (collectionIds.length === 0) return new Map();
  const { rows } = await sql<{ id: string; engagement: number }>`
    SELECT collection_id AS id, sum(engagement)::float8 AS engagement FROM social_signals
    WHERE collection_id = ANY(${[...collectionIds]}::text[])
      AND observed_on BETWEEN (${from}::timestamptz AT TIME ZONE 'UTC')::date AND (${to}::timestamptz AT TIME ZONE 'UTC')::date
    GROUP BY collection_id
  `.execute(db);
  return new Map(rows.map((r) => [r.id, r.engagement]));
}
