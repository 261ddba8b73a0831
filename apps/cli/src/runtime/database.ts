import type { Config } from '@mdq/config';
import { createDb, type Db, migrateToLatest } from '@mdq/db';
import { runningEmbeddedUrl, startEmbeddedPostgres } from '@mdq/embedded-postgres';
import { UsageError } from './fail';

export interface ResolvedDatabase {
  url: string;
  db: Db;
  /** Where the database came from, for the start-up banner. */
  origin: 'DATABASE_URL' | 'embedded (started)' | 'embedded (already running)';
  /** Where an embedded cluster started here keeps its data, and as which OS user it runs. */
  location?: string;
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
  let location: string | undefined;
  if (!url) {
    const running = await runningEmbeddedUrl(config.dataDir);
    if (running) {
      url = running;
      origin = 'embedded (already running)';
    } else if (options.mayStart) {
      const embedded = await startEmbeddedPostgres(config.dataDir, { sharedDir: config.sharedDir });
      url = embedded.url;
      origin = 'embedded (started)';
      stop = embedded.stop;
      location = embedded.osUser
        ? `${embedded.clusterDir} (run as OS user ${embedded.osUser})`
        : embedded.clusterDir;
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
    ...(location ? { location } : {}),
    async close() {
      await db.destroy();
      await stop?.();
    },
  };
}
