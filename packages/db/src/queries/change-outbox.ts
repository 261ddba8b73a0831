import { sql } from 'kysely';
import type { Db } from '../database';

export interface ChangedCollection {
  collectionId: string;
  version: number;
}

/** Collections whose change is committed but not yet enqueued, oldest change first. */
export async function pendingCollectionChanges(db: Db, limit: number): Promise<ChangedCollection[]> {
  const rows = await db
    .selectFrom('collection_change_outbox')
    .select(['collection_id', 'version'])
    .orderBy('version')
    .orderBy('collection_id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ collectionId: r.collection_id, version: r.version }));
}

/**
 * Forgets changes once enqueued. A row whose version rose meanwhile (a newer batch touched the
 * collection again) stays, so that newer change is enqueued too.
 */
export async function ackCollectionChanges(db: Db, changes: readonly ChangedCollection[]): Promise<void> {
  if (changes.length === 0) return;
  await sql`
    DELETE FROM collection_change_outbox o
    USING unnest(${changes.map((c) => c.collectionId)}::text[], ${changes.map((c) => c.version)}::bigint[])
      AS done(collection_id, version)
    WHERE o.collection_id = done.collection_id AND o.version <= done.version`.execute(db);
}
