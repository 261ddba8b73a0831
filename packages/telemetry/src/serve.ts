import { createServer, type Server } from 'node:http';
import { registry } from './metrics';

export interface MetricsServer {
  url: string;
  close(): Promise<void>;
}

/**
 * `/metrics` for a process without the HTTP API (`mdq indexer`, `mdq worker`): a bare listener,
 * since Prometheus only needs one GET. Anything else is a 404.
 */
export async function serveMetrics(port: number, host = '127.0.0.1'): Promise<MetricsServer> {
  const server: Server = createServer((request, response) => {
    if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
      response.writeHead(404).end();
      return;
    }
    registry.metrics().then(
      (body) => response.writeHead(200, { 'content-type': registry.contentType }).end(body),
      () => response.writeHead(503).end(),
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });
  const address = server.address();
  const bound = typeof address === 'object' && address ? address.port : port;
  return {
    url: `http://${host}:${bound}/metrics`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
