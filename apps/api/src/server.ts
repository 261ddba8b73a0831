import type { Config } from '@mdq/config';
import { createDb, type Db, ensureApiKey } from '@mdq/db';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app';
import type { CollectionUriResolver } from './routes/utility';

export interface RunningApi {
  app: FastifyInstance;
  url: string;
  close(): Promise<void>;
}

/** Starts the HTTP API on config.host:config.port against an existing database. */
export async function startApi(
  config: Config,
  databaseUrl: string,
  options: {
    db?: Db;
    /** The worker's resolver (apps/worker resolveCollectionUri bound to a db and options). */
    resolveCollectionUri?: CollectionUriResolver;
  } = {},
): Promise<RunningApi> {
  const db = options.db ?? createDb(databaseUrl, { applicationName: 'mdq-api', max: 20 });
  const readDb = config.databaseReadUrl
    ? createDb(config.databaseReadUrl, { applicationName: 'mdq-api-read', max: 20 })
    : undefined;
  if (config.apiKey) await ensureApiKey(db, config.apiKey, 'MDQ_API_KEY');
  const app = await buildApp({
    db,
    ...(readDb ? { readDb } : {}),
    network: config.network,
    ...(options.resolveCollectionUri ? { resolveCollectionUri: options.resolveCollectionUri } : {}),
    logger: config.logLevel === 'silent' ? false : { level: config.logLevel },
  });
  const address = await app.listen({ host: config.host, port: config.port });
  return {
    app,
    url: address,
    async close() {
      await app.close();
      if (readDb) await readDb.destroy();
      if (!options.db) await db.destroy();
    },
  };
}
