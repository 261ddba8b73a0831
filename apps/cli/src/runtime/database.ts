import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Config } from '@mdq/config';
import { createDb, type Db, embeddedDatabaseUrl, migrateToLatest, startEmbeddedPostgres } from '@mdq/db';
import { UsageError } from './fail';

export interface ResolvedDatabase {
  url: string;
  db: Db;
  /** Where the database came from, for the start-up banner. */
  origin: 'DATABASE_URL' | 'embedded (started)' | 'embedded (already running)';
  close(): Promise<void>;
}

/**
 * DATABASE_URL when set; otherwise the embedded Postgres under the data directory: joined when
 * another mdq process already runs it, started (and stopped on close) when `mayStart`.
 */
export async function resolveDatabase(
  config: Config,
  options: { mayStart: boolean; migrate: boolean },
): Promise<ResolvedDatabase> {
  let url = config.databaseUrl;
  let origin: ResolvedDatabase['origin'] = 'DATABASE_URL';
  let stop: (() => Promise<void>) | undefined;
  if (!url) {
    const running = await runningEmbedded(config.dataDir);
    if (running) {
      url = running;
      origin = 'embedded (already running)';
    } else if (options.mayStart) {
      const embedded = await startEmbeddedPostgres(config.dataDir);
      url = embedded.url;
      origin = 'embedded (started)';
      stop = embedded.stop;
    } else {
      throw new UsageError(
        'DATABASE_URL is not set and no embedded database is running (start one with `pnpm mdq start`)',
      );
    }
  }
  const db = createDb(url, { applicationName: 'mdq-cli' });
  try {
    if (options.migrate) await migrateToLatest(db);
  } catch (error) {
    await db.destroy();
    await stop?.();
    throw error;
  }
  return {
    url,
    db,
    origin,
    async close() {
      await db.destroy();
      await stop?.();
    },
  };
}

/** The embedded cluster writes its port next to its data; a live postmaster.pid means it runs. */
async function runningEmbedded(dataDir: string): Promise<string | null> {
  const base = resolve(dataDir);
  const [port, pid] = await Promise.all([
    readFile(join(base, 'postgres.port'), 'utf8').catch(() => null),
    readFile(join(base, 'postgres', 'postmaster.pid'), 'utf8').catch(() => null),
  ]);
  if (!port || !pid) return null;
  const processId = Number(pid.split('\n')[0]);
  try {
    process.kill(processId, 0);
  } catch {
    return null;
  }
  return embeddedDatabaseUrl(port.trim());
}
