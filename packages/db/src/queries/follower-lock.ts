import { sql } from 'kysely';
import type { Db } from '../database';
import { LockUnavailableError } from './locks';

export interface FollowerLock {
  /**
   * Resolves once this process holds the lock: at once while the session that took it is alive;
   * after a database restart (the session, and with it the lock, is gone) it takes the lock again.
   * Throws LockUnavailableError when another process took it meanwhile.
   */
  ensure(): Promise<void>;
  release(): Promise<void>;
}

/**
 * A session-level advisory lock held on one pooled connection for as long as the follower runs.
 * A live session still holds its lock, so ensure() is one round trip on that connection; when the
 * round trip fails the connection is dropped and the lock re-acquired on a fresh one.
 */
export async function acquireFollowerLock(db: Db, name: string): Promise<FollowerLock> {
  let held: { release(): void; alive: () => Promise<void>; done: Promise<void> } | null = null;

  const take = async () => {
    let ready!: (value: { ok: boolean }) => void;
    let failed!: (error: unknown) => void;
    const taken = new Promise<{ ok: boolean }>((resolve, reject) => {
      ready = resolve;
      failed = reject;
    });
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let ping!: () => Promise<void>;
    // Kysely lends a connection for the length of a callback: the callback lasts as long as the lock.
    const done = db
      .connection()
      .execute(async (conn) => {
        const { rows } = await sql<{
          ok: boolean;
        }>`SELECT pg_try_advisory_lock(hashtext(${name})) AS ok`.execute(conn);
        ping = async () => {
          await sql`SELECT 1`.execute(conn);
        };
        ready({ ok: rows[0]?.ok === true });
        if (!rows[0]?.ok) return;
        await released;
        await sql`SELECT pg_advisory_unlock(hashtext(${name}))`.execute(conn);
      })
      .catch((error: unknown) => failed(error));
    const { ok } = await taken;
    if (!ok) {
      await done;
      throw new LockUnavailableError(`another process holds the lock "${name}"`);
    }
    held = { release, alive: () => ping(), done };
  };

  await take();
  return {
    async ensure() {
      if (held) {
        try {
          await held.alive();
          return;
        } catch {
          // The session is gone (restart, failover): so is its lock. Let the connection go.
          held.release();
          await held.done.catch(() => undefined);
          held = null;
        }
      }
      await take();
    },
    async release() {
      if (!held) return;
      held.release();
      await held.done.catch(() => undefined);
      held = null;
    },
  };
}
