import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDb, migrateToLatest } from '@mdq/db';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { EmbeddedStartError, runningEmbeddedUrl, startEmbeddedPostgres } from '../src/index';

const asRoot = process.getuid?.() === 0;

describe('embedded Postgres', () => {
  const dirs: string[] = [];
  const tempDir = async (prefix: string, mode = 0o700) => {
    const dir = await mkdtemp(join(tmpdir(), prefix));
    await chmod(dir, mode);
    dirs.push(dir);
    return dir;
  };
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('starts, migrates, stops, and starts again on the same data', { timeout: 180_000 }, async () => {
    // A private (0700) data folder: as root, the `postgres` OS user cannot traverse it, so the
    // cluster must go to the shared folder; as anyone else it stays in the data folder.
    const dir = await tempDir('mdq-embedded-');
    const sharedDir = await tempDir('mdq-shared-', 0o755);

    const first = await startEmbeddedPostgres(dir, { sharedDir });
    expect(first.clusterDir.startsWith(asRoot ? join(sharedDir, 'clusters') : dir)).toBe(true);
    expect(first.osUser).toBe(asRoot ? 'postgres' : null);
    expect(await runningEmbeddedUrl(dir)).toBe(first.url);
    const db = createDb(first.url, { max: 2 });
    await migrateToLatest(db);
    await db.insertInto('indexer_checkpoints').values({ name: 'kept', last_version: 42 }).execute();
    const { rows } = await sql<{ v: string }>`SELECT current_setting('server_version_num') AS v`.execute(db);
    expect(Number(rows[0]?.v)).toBeGreaterThanOrEqual(180000);
    await db.destroy();
    await first.stop();
    expect(await runningEmbeddedUrl(dir)).toBeNull();
    expect(existsSync(join(first.clusterDir, 'postmaster.pid'))).toBe(false);

    const second = await startEmbeddedPostgres(dir, { sharedDir });
    expect(second.clusterDir).toBe(first.clusterDir);
    const again = createDb(second.url, { max: 2 });
    const migrated = await migrateToLatest(again);
    expect(migrated.results).toEqual([]);
    const kept = await again.selectFrom('indexer_checkpoints').select('last_version').executeTakeFirst();
    expect(kept?.last_version).toBe(42);
    await again.destroy();
    await second.stop();
  });

  it.runIf(asRoot)(
    'as root keeps a cluster in a data folder the postgres user can reach (an existing .data/)',
    { timeout: 180_000 },
    async () => {
      const dir = await tempDir('mdq-embedded-open-', 0o755);
      const sharedDir = await tempDir('mdq-shared-', 0o755);
      const server = await startEmbeddedPostgres(dir, { sharedDir });
      expect(server.clusterDir).toBe(join(dir, 'postgres'));
      expect((await stat(server.clusterDir)).uid).not.toBe(0);
      await server.stop();
    },
  );

  it('fails with one line naming the fix when the data folder cannot be written', async () => {
    // A data folder under a regular file cannot be created, for root too.
    const parent = await tempDir('mdq-embedded-bad-');
    const file = join(parent, 'not-a-folder');
    await writeFile(file, '');
    const sharedDir = await tempDir('mdq-shared-', 0o755);
    const failure = await startEmbeddedPostgres(join(file, 'data'), { sharedDir }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(EmbeddedStartError);
    const message = (failure as Error).message;
    expect(message).not.toContain('\n');
    expect(message).toMatch(/^the embedded Postgres did not start: .*ENOTDIR/);
    expect(message).toContain('DATABASE_URL');
    expect(message).toContain('MDQ_DATA_DIR');
  });

  it('fails with Postgres’s own reason when the cluster is damaged', { timeout: 120_000 }, async () => {
    const dir = await tempDir('mdq-embedded-damaged-');
    const sharedDir = await tempDir('mdq-shared-', 0o755);
    const server = await startEmbeddedPostgres(dir, { sharedDir });
    await server.stop();
    await rm(join(server.clusterDir, 'global', 'pg_control'));
    const failure = await startEmbeddedPostgres(dir, { sharedDir }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(EmbeddedStartError);
    expect((failure as Error).message).not.toContain('\n');
    expect((failure as Error).message).toMatch(/postgres exited .*pg_control/);
  });
});
