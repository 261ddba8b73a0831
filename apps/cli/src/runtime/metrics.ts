import type { Config } from '@mdq/config';
import { chainLagOf, type Db, readFreshness } from '@mdq/db';
import { type MetricsServer, reportChainLag, serveMetrics } from '@mdq/telemetry';

/**
 * `mdq indexer` and `mdq worker` run alone have no HTTP API to carry /metrics: with
 * MDQ_METRICS_PORT set they serve it on a listener of their own (on HOST), with the chain lag read
 * from their database like the API's.
 */
export async function serveMetricsIfAsked(config: Config, db: Db): Promise<MetricsServer | null> {
  if (config.metricsPort === undefined) return null;
  reportChainLag(async () => chainLagOf(await readFreshness(db), new Date()));
  return serveMetrics(config.metricsPort, config.host);
}
