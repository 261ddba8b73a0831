import { sql } from 'kysely';
import type { Db } from '../database';

export class LockUnavailableError extends Error {
  override name = 'LockUnavailableError';
}

/**
 * Runs `fn` while holding a session-level advisory lock on one pooled connection, so that only one
 * process follows the chain tip at a time (ordering per token depends on it). Throws
 * LockUnavailableError at once when another process holds it.
 */
export async function withAdvisoryLock<T>(db: Db, name: string, fn: () => Promise<T>): Promise<T> {
  return db.connection().execute(async (conn) => {
    const { rows } = await sql<{ ok: boolean }>`SELECT pg_try_advisory_lock(hashtext(${name})) AS ok`.execute(
      conn,
    );
    if (!rows[0]?.ok) throw new LockUnavailableError(`another process holds the lock "${name}"`);
    try {
      return await fn();
    } finally {
      await sql`SELECT pg_advisory_unlock(hashtext(${name}))`.execute(conn);
    }
  });
}
