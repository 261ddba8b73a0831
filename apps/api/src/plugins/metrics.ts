import { chainLagOf } from '@mdq/db';
import { httpDuration, httpRequests, registry, reportChainLag } from '@mdq/telemetry';
import type { FastifyInstance } from 'fastify';
import type { ReadStateSource } from './freshness';

/**
 * Request rate and latency per route pattern (not per URL: a label per token id would grow without
 * bound) and status, the chain lag as the API sees it, and `GET /metrics` for Prometheus (no API
 * key, like /health: scrape it from inside the network, not through the public load balancer).
 */
export function registerMetrics(
  app: FastifyInstance,
  opts: { freshness: ReadStateSource; now: () => Date },
): void {
  app.addHook('onResponse', (request, reply, done) => {
    const labels = {
      method: request.method,
      route: request.routeOptions.url ?? 'unmatched',
      status: String(reply.statusCode),
    };
    httpRequests.inc(labels);
    httpDuration.observe(labels, reply.elapsedTime / 1000);
    done();
  });
  reportChainLag(async () => chainLagOf(await opts.freshness.current(), opts.now()));
  app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
    reply.header('content-type', registry.contentType);
    return registry.metrics();
  });
}
