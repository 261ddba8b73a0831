import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDb, createDb, createDbLike, onOneConnection } from '../src/database';
import { executePrepared } from '../src/prepared';
import { createTestDatabase, type TestDatabase } from '../src/testing';

describe('createDb options', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase({ migrate: false });
  });
  afterAll(() => t.drop());

  const settings = async (options: Parameters<typeof createDb>[1]) => {
    const db = createDb(t.url, { ...options, max: 2 });
    try {
      // Two connections at once: each connection of the pool is set up alike, not only the first.
      const read = () =>
        sql<{ jit: string; timeout: string }>`SELECT current_setting('jit') AS jit,
          current_setting('statement_timeout') AS timeout, pg_sleep(0.05)`.execute(db);
      const [a, b] = await Promise.all([read(), read()]);
      return [a.rows[0], b.rows[0]];
    } finally {
      await db.destroy();
    }
  };

  it('jit: false turns JIT off on every connection of the pool, with the statement timeout kept', async () => {
    expect(await settings({ jit: false, statementTimeoutMs: 1234 })).toEqual([
      { jit: 'off', timeout: '1234ms', pg_sleep: '' },
      { jit: 'off', timeout: '1234ms', pg_sleep: '' },
    ]);
  });

  it("leaves the server's JIT setting (its configured value) alone by default", async () => {
    const { rows } = await sql<{
      jit: string;
    }>`SELECT reset_val AS jit FROM pg_settings WHERE name = 'jit'`.execute(t.db);
    const [a] = await settings({});
    expect(a?.jit).toBe(rows[0]?.jit);
  });

  it('readOnly refuses writes on a pool made like another, with its other settings kept', async () => {
    const base = createDb(t.url, { max: 1 });
    const readOnly = createDbLike(base, { max: 1, readOnly: true, jit: false, statementTimeoutMs: 4321 });
    try {
      if (!readOnly) throw new Error('a Db made by createDb has a pool to copy');
      const { rows } = await sql<{ ro: string; jit: string; timeout: string }>`SELECT
          current_setting('default_transaction_read_only') AS ro, current_setting('jit') AS jit,
          current_setting('statement_timeout') AS timeout`.execute(readOnly);
      expect(rows).toEqual([{ ro: 'on', jit: 'off', timeout: '4321ms' }]);
      await expect(sql`CREATE TABLE written (id int)`.execute(readOnly)).rejects.toMatchObject({
        code: '25006',
      });
      // The pool it was made like still writes.
      await sql`CREATE TABLE written (id int)`.execute(base);
    } finally {
      if (readOnly) await closeDb(readOnly);
      await base.destroy();
    }
  });

  it('one connection runs one statement at a time, and refuses a second sent before the first answered', async () => {
    const db = createDb(t.url, { max: 1 });
    try {
      const sent = await onOneConnection(db, async (connection) => {
        const first = sql<{ n: number }>`SELECT 1 AS n, pg_sleep(0.05)`.execute(connection);
        const second = sql<{ n: number }>`SELECT 2 AS n`.execute(connection);
        return Promise.allSettled([first, second]);
      });
      expect(sent[0]).toMatchObject({ status: 'fulfilled', value: { rows: [{ n: 1 }] } });
      expect(sent[1]).toMatchObject({
        status: 'rejected',
        reason: { message: expect.stringContaining('still running another') },
      });
      // Awaited one after the other, both run, prepared or not, and the connection goes on serving.
      const after = await onOneConnection(db, async (connection) => {
        const a = await sql<{ n: number }>`SELECT 3 AS n`.execute(connection);
        const b = await executePrepared(connection, sql<{ n: number }>`SELECT 4 AS n`);
        return [a.rows[0]?.n, b[0]?.n];
      });
      expect(after).toEqual([3, 4]);
    } finally {
      await closeDb(db);
    }
  });
});
