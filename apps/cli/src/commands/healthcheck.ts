import { loadConfig } from '@mdq/config';
import type { Command } from 'commander';

/**
 * `mdq healthcheck`: the image's HEALTHCHECK, one command for every role. It succeeds when the mdq
 * of this container answers: the API's /health on PORT, else the /metrics listener that an indexer
 * or worker opens on MDQ_METRICS_PORT. A process with neither (a one-off `migrate`) has no health.
 */
export function healthcheckCommand(program: Command): void {
  program
    .command('healthcheck')
    .description('Exit 0 when the local mdq answers: /health on PORT, else /metrics on MDQ_METRICS_PORT')
    .action(async () => {
      const config = loadConfig();
      // Listening on every address (the image's HOST=0.0.0.0) means reachable on loopback.
      const host = ['0.0.0.0', '::', ''].includes(config.host) ? '127.0.0.1' : config.host;
      const urls = [`http://${host}:${config.port}/health`];
      if (config.metricsPort !== undefined) urls.push(`http://${host}:${config.metricsPort}/metrics`);
      for (const url of urls) {
        const ok = await fetch(url, { signal: AbortSignal.timeout(3_000) }).then(
          (response) => response.ok,
          () => false,
        );
        if (ok) return;
      }
      throw new Error(`no mdq answers at ${urls.join(' or ')}`);
    });
}
