import http from 'node:http';
import Fastify from 'fastify';
import { DevnetChain } from '../chain/devnet-chain';
import type { ChainOptions, Preset } from '../config';
import type { DevnetFacts } from '../facts/types';
import { type GrpcFaults, startGrpcServer } from '../grpc/grpc-server';
import { MetadataSite, registerMetadataRoutes } from '../metadata/site';
import { loadRecorded } from '../recorded/load-recorded';
import { RecordedSource } from '../recorded/recorded-source';
import { GeneratedSource } from './generated-source';
import { registerRoutes } from './routes';
import type { ChainSource } from './source';

/** Documented default port of `mdq devnet`. */
export const DEFAULT_DEVNET_PORT = 8090;

export interface DevnetServerOptions extends Omit<ChainOptions, 'endTimeMs'> {
  port?: number;
  host?: string;
  /** Serve the recorded transactions under this directory instead of generating a chain. */
  transactionsDir?: string;
  /** `'now'` ends the initial chain at the wall clock (rounded to the second); default: fixed epoch. */
  endTime?: number | 'now';
  /** ms between live blocks; 0 disables live growth. Default 1000. */
  blockIntervalMs?: number;
  /**
   * The clock at start (ms): every block with a timestamp at or before it is published at once,
   * e.g. the live and catch-up blocks of a restarted embedded chain (see `resumes`). Default: the
   * ledger starts at the end of the initial chain.
   */
  nowMs?: number;
  /** Versions between simulator checkpoints (generated mode). */
  checkpointEvery?: number;
  preset?: Preset;
  /** Also serve the chain over the Transaction Stream gRPC service on this port (0: a free one). */
  grpcPort?: number;
  /** How long the misbehaving `slow` metadata URI waits before answering (default 30 s). */
  metadataSlowMs?: number;
  /** Test hook: break gRPC streams at random points (see GrpcFaults). */
  grpcFaults?: GrpcFaults;
}

export interface DevnetServer {
  /** Base URL including `/v1`, e.g. `http://127.0.0.1:8090/v1`. */
  url: string;
  port: number;
  /** `http://host:port` of the gRPC Transaction Stream, when grpcPort was given. */
  grpcUrl: string | null;
  /** Streams broken by injected gRPC faults so far. */
  grpcFaultsInjected(): number;
  ledgerVersion(): number;
  /** Generated mode: the chain (facts, world); null when serving recorded files. */
  chain: DevnetChain | null;
  facts(): DevnetFacts | null;
  /** `http://host:port`: the origin every generated collection and token URI names. */
  origin: string;
  /** Generated mode: the off-chain documents and images (null when serving recorded files). */
  metadata: MetadataSite | null;
  /** Generated mode: publish `blocks` live blocks now instead of waiting for the timer. */
  advance(blocks?: number): void;
  close(): Promise<void>;
}

function endTimeMs(endTime: number | 'now' | undefined): number | undefined {
  if (endTime === 'now') return Math.floor(Date.now() / 1000) * 1000;
  return endTime;
}

export async function startDevnetServer(options: DevnetServerOptions = {}): Promise<DevnetServer> {
  // Listen first: the generated chain names its documents at this server's own address, which a
  // free port (port 0) only gives once bound. Until the chain is ready every request answers 503.
  const server = http.createServer();
  const early: http.RequestListener = (_req, res) => {
    res.writeHead(503, { 'content-type': 'application/json' }).end('{"message":"starting"}');
  };
  server.on('request', early);
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? DEFAULT_DEVNET_PORT, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port =
    typeof address === 'object' && address !== null ? address.port : (options.port ?? DEFAULT_DEVNET_PORT);
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  const origin = `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${port}`;

  let source: ChainSource;
  let chain: DevnetChain | null = null;
  let site: MetadataSite | null = null;
  try {
    if (options.transactionsDir !== undefined) {
      const { transactions } = loadRecorded(options.transactionsDir);
      source = new RecordedSource(transactions, options.chainId ?? 1);
    } else {
      const blockIntervalMs = options.blockIntervalMs === 0 ? undefined : options.blockIntervalMs;
      chain = new DevnetChain({
        ...options,
        metadataOrigin: options.metadataOrigin ?? origin,
        blockIntervalMs,
        endTimeMs: endTimeMs(options.endTime),
      });
      chain.prepare();
      source = new GeneratedSource(chain, {
        blockIntervalMs: options.blockIntervalMs ?? chain.config.blockIntervalMs,
        ...(options.nowMs !== undefined ? { publishUntilUs: options.nowMs * 1000 } : {}),
      });
      site = new MetadataSite(chain.world, {
        ...(options.metadataSlowMs ? { slowMs: options.metadataSlowMs } : {}),
      });
    }
  } catch (err) {
    server.close();
    throw err;
  }
  const app = Fastify({
    logger: false,
    serverFactory: (handler) => {
      server.off('request', early);
      server.on('request', handler);
      return server;
    },
  });
  registerRoutes(app, source);
  if (site) registerMetadataRoutes(app, site);
  await app.ready();
  const grpc =
    options.grpcPort === undefined
      ? null
      : await startGrpcServer(source, {
          port: options.grpcPort,
          host,
          chainId: source.ledger().chainId,
          ...(options.grpcFaults ? { faults: options.grpcFaults } : {}),
        });
  return {
    url: `${origin}/v1`,
    port,
    origin,
    metadata: site,
    grpcUrl: grpc?.url ?? null,
    grpcFaultsInjected: () => grpc?.faultsInjected() ?? 0,
    chain,
    ledgerVersion: () => source.ledger().ledgerVersion,
    facts: () => chain?.getFacts() ?? null,
    advance: (blocks = 1) => {
      if (source instanceof GeneratedSource) source.advance(blocks);
    },
    close: async () => {
      source.close();
      await grpc?.close();
      await app.close();
      // Fastify did not listen (the server is ours, bound before the chain was ready), so it does
      // not close it: without this the port stays taken after close().
      if (server.listening) {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        await closed;
      }
    },
  };
}
