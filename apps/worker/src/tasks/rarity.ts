import type { Db } from '@mdq/db';
import { computeOpenRarity } from '@mdq/db/worker';

/**
 * Recomputes one collection's OpenRarity table (the collection-changed job: the collections a
 * batch touched); returns how many tokens were ranked. The computation is one set-based statement
 * in Postgres (`computeOpenRarity`): see docs/DECISIONS.md for why SQL and not JavaScript.
 */
export async function computeCollectionRarity(db: Db, collectionId: string, now: Date): Promise<number> {
  return computeOpenRarity(db, [collectionId], now);
}

/** Every collection at once (the scheduled full recompute). */
export async function computeAllRarity(db: Db, now: Date): Promise<number> {
  return computeOpenRarity(db, 'all', now);
}
