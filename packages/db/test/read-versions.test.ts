import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readState } from '../src/queries/freshness';
import { foldReadVersions } from '../src/queries/read-versions';
import { createTestDatabase, type TestDatabase } from '../src/testing';

/** One connection of its own that writes `tokens` and `collections` once (a statement each: one bump each). */
async function writerThatWrote(url: string): Promise<{ pid: number; client: pg.Client }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  // Statement-level triggers fire for a statement that changes no row: a bump without data.
  await client.query('UPDATE tokens SET is_burned = is_burned WHERE false');
  await client.query('UPDATE collections SET collection_name = collection_name WHERE false');
  const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  return { pid: rows[0]?.pid ?? 0, client };
}

async function exited(db: TestDatabase['db'], pid: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const { rows } = await sql<{
      n: number;
    }>`SELECT count(*)::int AS n FROM pg_stat_activity WHERE pid = ${pid}`.execute(db);
    if (rows[0]?.n === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`backend ${pid} did not exit`);
}

describe('foldReadVersions', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(() => t.drop());

  const rows = async () =>
    (
      await sql<{ source: string; backend: number; version: string }>`
        SELECT source, backend, version::text AS version FROM read_versions ORDER BY source, backend`.execute(
        t.db,
      )
    ).rows;
  const sumOf = (all: { source: string; version: string }[], source: string) =>
    all.filter((r) => r.source === source).reduce((n, r) => n + Number(r.version), 0);

  it('folds the rows of exited backends into one per table, keeping every sum and the read version', async () => {
    const gone = await Promise.all([writerThatWrote(t.url), writerThatWrote(t.url), writerThatWrote(t.url)]);
    const live = await writerThatWrote(t.url);
    for (const w of gone) await w.client.end();
    for (const w of gone) await exited(t.db, w.pid);

    const before = await rows();
    const versionBefore = (await readState(t.db)).version;
    // Each writer bumped tokens and collections once, in its own row.
    for (const w of [...gone, live]) {
      expect(before.filter((r) => r.backend === w.pid).map((r) => [r.source, r.version])).toEqual([
        ['collections', '1'],
        ['tokens', '1'],
      ]);
    }

    const { folded } = await foldReadVersions(t.db);
    const after = await rows();
    expect(folded).toBeGreaterThanOrEqual(6);
    expect(after.filter((r) => gone.some((w) => w.pid === r.backend))).toEqual([]);
    expect(after.filter((r) => r.backend === live.pid)).toHaveLength(2);
    for (const source of new Set(before.map((r) => r.source))) {
      expect(sumOf(after, source)).toBe(sumOf(before, source));
    }
    expect((await readState(t.db)).version).toBe(versionBefore);
    // Folding again finds nothing new; the folded rows are not folded twice.
    expect(await foldReadVersions(t.db)).toEqual({ folded: 0 });
    expect((await readState(t.db)).version).toBe(versionBefore);

    // A write after the fold still moves the version, by its one bump.
    await live.client.query('UPDATE tokens SET is_burned = is_burned WHERE false');
    const [indexed, written] = versionBefore.split('.');
    expect((await readState(t.db)).version).toBe(`${indexed}.${Number(written) + 1}`);
    await live.client.end();
  });
});
