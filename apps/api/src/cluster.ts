import cluster from 'node:cluster';
import { availableParallelism } from 'node:os';
import type { Config } from '@mdq/config';
import { type StartApiOptions, startApi } from './server';

export interface ApiServers {
  url: string;
  /** Processes serving the port. */
  workers: number;
  close(): Promise<void>;
}

/** MDQ_API_WORKERS: 0 means one process per CPU. */
export function apiWorkerCount(config: Pick<Config, 'apiWorkers'>): number {
  return config.apiWorkers === 0 ? availableParallelism() : config.apiWorkers;
}

/**
 * The API as `config.apiWorkers` processes on one port (node:cluster: the primary accepts and
 * hands connections round-robin to the workers), so a request's JSON work uses every core.
 * One worker means no cluster: the API runs in this process.
 *
 * Called in the primary, it forks the workers (each re-runs the same entry script and reaches this
 * function again as a worker) and resolves once all listen; a worker that dies is replaced. Called
 * in a worker, it starts the API and resolves to null: the caller has nothing more to do.
 *
 * The per-key rate limit is counted once across the workers through Redis; without Redis each
 * worker counts its own share (the limit divided by the worker count, round-robin keeps the shares
 * even).
 */
export async function startApiServers(
  config: Config,
  databaseUrl: string,
  options: StartApiOptions = {},
): Promise<ApiServers | null> {
  const workers = apiWorkerCount(config);
  const perProcessConfig =
    workers > 1 && !options.redisUrl
      ? { ...config, rateLimitPerMinute: Math.max(1, Math.floor(config.rateLimitPerMinute / workers)) }
      : config;
  if (workers <= 1 || cluster.isWorker) {
    const api = await startApi(perProcessConfig, databaseUrl, options);
    if (workers <= 1) return { url: api.url, workers: 1, close: api.close };
    process.send?.({ mdqApiListening: api.url });
    const stop = () => void api.close().finally(() => process.exit(0));
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
    return null;
  }

  let closing = false;
  const urls: Promise<string>[] = [];
  const fork = () => {
    const worker = cluster.fork();
    const listening = new Promise<string>((resolve, reject) => {
      worker.on('message', (message: { mdqApiListening?: string }) => {
        if (message.mdqApiListening) resolve(message.mdqApiListening);
      });
      worker.once('exit', (code) =>
        reject(new Error(`API worker exited with code ${code} before listening`)),
      );
    });
    worker.once('exit', () => {
      // A crashed worker is replaced once the others are serving; a shutdown is not.
      if (!closing) listening.then(fork, () => undefined);
    });
    return listening;
  };
  for (let i = 0; i < workers; i += 1) urls.push(fork());
  const [url] = await Promise.all(urls);
  return {
    url: url as string,
    workers,
    async close() {
      closing = true;
      const running = Object.values(cluster.workers ?? {});
      await Promise.all(
        running.map(
          (worker) =>
            new Promise<void>((resolve) => {
              if (!worker || worker.isDead()) return resolve();
              worker.once('exit', () => resolve());
              worker.process.kill('SIGTERM');
            }),
        ),
      );
    },
  };
}
