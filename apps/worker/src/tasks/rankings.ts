import type { Db, RankingName } from '@mdq/db';
import {
  type CurrentFloor,
  type LootboxRankingRow,
  loadCurrentFloors,
  loadEngagement,
  loadFloorsAt,
  loadHolderCounts,
  loadLootboxesByCreation,
  loadUpcomingLootboxes,
  loadWindowSalesFields,
  type RankingEntry,
  replaceRanking,
  type WindowSales,
} from '@mdq/db/worker';
import {
  COLLECTION_RANKINGS,
  type CollectionRanking,
  FEED_RANKING_TOP,
  floorChange,
} from '../rankings/definitions';
import { type Candidate, scoreCandidates } from '../rankings/score';

/**
 * Computes one collection ranking at `now` and replaces its snapshots: the ranking proper leaves
 * wash-flagged sales out of volume, sales and buyers; `<name>_with_flagged` counts them (what the API
 * serves for includeFlagged=true). Returns the entries of the ranking proper.
 */
export async function computeCollectionRanking(db: Db, name: CollectionRanking, now: Date): Promise<number> {
  const start = new Date(now.getTime() - COLLECTION_RANKINGS[name].windowMs);
  const { clean, withFlagged: raw } = await loadWindowSalesFields(db, start, now);
  // Both fields' other metrics in one load each: the field with flagged sales holds every
  // collection of the clean one, and a collection's floors, holders and engagement do not depend
  // on which sales count (loading them per field cost each query twice: docs/PERFORMANCE.md).
  const inputs = await loadMetricInputs(
    db,
    name,
    [...new Set([...raw, ...clean].map((s) => s.collectionId))],
    start,
    now,
  );
  const entries = await storeRanking(db, name, name, clean, inputs, start, now);
  await storeRanking(db, name, `${name}_with_flagged`, raw, inputs, start, now);
  return entries;
}

/** The metrics a ranking needs beyond sales, for the collections of its field; absent when unused. */
interface MetricInputs {
  floorsNow?: Map<string, CurrentFloor>;
  floorsStart?: Map<string, string | null>;
  holders?: Map<string, number>;
  engagement?: Map<string, number>;
}

async function loadMetricInputs(
  db: Db,
  name: CollectionRanking,
  ids: readonly string[],
  start: Date,
  now: Date,
): Promise<MetricInputs> {
  const wants = new Set(COLLECTION_RANKINGS[name].metrics.map((m) => m.name));
  const [floorsNow, floorsStart, holders, engagement] = await Promise.all([
    wants.has('floorChange') ? loadCurrentFloors(db, ids) : undefined,
    wants.has('floorChange') ? loadFloorsAt(db, ids, start) : undefined,
    wants.has('holders') ? loadHolderCounts(db, ids) : undefined,
    wants.has('socialEngagement') ? loadEngagement(db, ids, start, now) : undefined,
  ]);
  return {
    ...(floorsNow && { floorsNow }),
    ...(floorsStart && { floorsStart }),
    ...(holders && { holders }),
    ...(engagement && { engagement }),
  };
}

/**
 * Scores one field and replaces the stored ranking. The field is every collection with at least one
 * sale in the window; the other metrics come from `inputs`, loaded for the fields of both variants.
 */
async function storeRanking(
  db: Db,
  name: CollectionRanking,
  storedAs: RankingName,
  sales: WindowSales[],
  inputs: MetricInputs,
  start: Date,
  now: Date,
): Promise<number> {
  const def = COLLECTION_RANKINGS[name];
  const wants = new Set(def.metrics.map((m) => m.name));
  const { floorsNow, floorsStart, holders, engagement } = inputs;
  const candidates: Candidate[] = sales.map((s) => {
    const floorNow = floorsNow?.get(s.collectionId)?.floor ?? null;
    const floorStart = floorsStart?.get(s.collectionId) ?? null;
    const values: Candidate['values'] = { volume: s.volume, sales: s.sales, uniqueBuyers: s.uniqueBuyers };
    if (wants.has('floorChange')) values['floorChange'] = floorChange(floorStart, floorNow);
    if (holders) values['holders'] = holders.get(s.collectionId) ?? 0;
    if (engagement) values['socialEngagement'] = engagement.get(s.collectionId) ?? null;
    return { collectionId: s.collectionId, volume: s.volume, values };
  });
  const scored = scoreCandidates(candidates, def.metrics);
  const byId = new Map(candidates.map((c) => [c.collectionId, c]));
  const entries: RankingEntry[] = scored.map((s) => {
    const metrics: RankingEntry['metrics'] = { ...byId.get(s.collectionId)?.values };
    if (floorsNow && floorsStart) {
      metrics['floorPrice'] = floorsNow.get(s.collectionId)?.floor ?? null;
      metrics['floorPriceAtStart'] = floorsStart.get(s.collectionId) ?? null;
    }
    for (const [metric, p] of Object.entries(s.percentiles)) metrics[`${metric}Percentile`] = p;
    return { collectionId: s.collectionId, lootboxId: null, score: s.score, metrics };
  });
  // The feed carries the rankings proper; `_with_flagged` is the same list under a query option.
  const feed = storedAs === name ? { feedTop: FEED_RANKING_TOP } : {};
  await replaceRanking(db, storedAs, entries, {
    computedAt: now,
    windowStart: start,
    windowEnd: now,
    ...feed,
  });
  return entries.length;
}

function lootboxMetrics(l: LootboxRankingRow): RankingEntry['metrics'] {
  return {
    creator: l.creator,
    collectionName: l.collectionName,
    price: l.price,
    maxSupply: l.maxSupply,
    minted: l.minted,
    createdAt: l.createdAt.toISOString(),
    mintStart: l.mintStart.toISOString(),
    mintEnd: l.mintEnd ? l.mintEnd.toISOString() : null,
  };
}

/** Recently added (newest first) and upcoming (mint not started, soonest first); score = the sort time in seconds. */
export async function computeLootboxRankings(db: Db, now: Date): Promise<number> {
  const [recent, upcoming] = await Promise.all([loadLootboxesByCreation(db), loadUpcomingLootboxes(db, now)]);
  const toEntry = (l: LootboxRankingRow, at: Date): RankingEntry => ({
    collectionId: l.collectionId,
    lootboxId: l.lootboxId,
    score: Math.floor(at.getTime() / 1000),
    metrics: lootboxMetrics(l),
  });
  const run = { computedAt: now, windowStart: null, windowEnd: null };
  await replaceRanking(
    db,
    'recent_added',
    recent.map((l) => toEntry(l, l.createdAt)),
    run,
  );
  await replaceRanking(
    db,
    'upcoming',
    upcoming.map((l) => toEntry(l, l.mintStart)),
    run,
  );
  return recent.length + upcoming.length;
}

const COLLECTION_RANKING_NAMES: readonly CollectionRanking[] = ['trending', 'daily_picks', 'top'];

/**
 * Every ranking at `now`, at the same time: each is a few independent reads (its loads already
 * run side by side) and its own replace, so on two cores they overlap (1M chain: 1,145 -> 951 ms
 * cold, 912 -> 756 ms warm). Their ranking_changed rows stay ordered by the feed's lock.
 */
export async function computeAllRankings(db: Db, now: Date): Promise<void> {
  await Promise.all([
    ...COLLECTION_RANKING_NAMES.map((name) => computeCollectionRanking(db, name, now)),
    computeLootboxRankings(db, now),
  ]);
}
