import { once } from 'node:events';
import { Server, ServerCredentials, type ServerWritableStream, status } from '@grpc/grpc-js';
import {
  type GetTransactionsRequest,
  protoFromJson,
  type RawDataServer,
  RawDataService,
  restToProto,
  type TransactionsResponse,
} from '@mdq/chain/stream';
import type { RestTransaction } from '../render/rest-types';
import type { ChainSource } from '../server/source';
import { Rng } from '../util/prng';
import { matchesFilter } from './transaction-filter';

/**
 * Faults injected on purpose, so tests meet what the hosted Transaction Stream does: a stream that
 * ends or breaks anywhere (also in the middle of a response batch), then refuses calls for a while.
 */
export interface GrpcFaults {
  seed: number;
  /** Probability, per response about to be sent, that the stream ends or breaks instead. */
  breakRate: number;
  /** After a break, this many following calls fail at once with UNAVAILABLE. Default 2. */
  refuseCalls?: number;
}

export interface DevnetGrpcOptions {
  port: number;
  host: string;
  chainId: number;
  /** Transactions per response when the request names no batch size (the hosted default is 1000). */
  batchSize?: number;
  /** An empty response (chain id only) this often while at the tip: a heartbeat, never an error. */
  heartbeatMs?: number;
  faults?: GrpcFaults;
  /** Refuse calls without `authorization: Bearer <apiKey>` (UNAUTHENTICATED), as the hosted service does. */
  apiKey?: string;
}

/** What the server reads of a chain: the devnet's generated or recorded chain, or one a test built. */
export type StreamedChain = Pick<ChainSource, 'ledger' | 'transactions'>;

export interface DevnetGrpcServer {
  /** `http://host:port`, the form APTOS_GRPC_URL takes for a plaintext server. */
  url: string;
  port: number;
  /** Streams broken or ended by injected faults so far. */
  faultsInjected(): number;
  close(): Promise<void>;
}

type Call = ServerWritableStream<GetTransactionsRequest, TransactionsResponse>;

/** Serves `aptos.indexer.v1.RawData/GetTransactions` over the same chain as the REST routes. */
export async function startGrpcServer(
  source: StreamedChain,
  options: DevnetGrpcOptions,
): Promise<DevnetGrpcServer> {
  const rng = options.faults ? Rng.fromSeed(options.faults.seed, 0x67727063) : null;
  const chainId = BigInt(options.chainId);
  const heartbeatMs = options.heartbeatMs ?? 1000;
  let refusing = 0;
  let injected = 0;
  let closing = false;
  const open = new Set<Call>();

  const fault = (): boolean =>
    rng !== null && options.faults !== undefined && rng.float() < options.faults.breakRate;

  const getTransactions = async (call: Call): Promise<void> => {
    if (
      options.apiKey !== undefined &&
      call.metadata.get('authorization')[0] !== `Bearer ${options.apiKey}`
    ) {
      fail(call, 'devnet: missing or unknown API key', status.UNAUTHENTICATED);
      return;
    }
    if (refusing > 0) {
      refusing--;
      fail(call, 'devnet: injected outage');
      return;
    }
    open.add(call);
    let cancelled = false;
    call.on('cancelled', () => {
      cancelled = true;
    });
    const start = call.request.startingVersion ?? 0n;
    const end = call.request.transactionsCount === undefined ? null : start + call.request.transactionsCount;
    const batchSize = Number(call.request.batchSize ?? BigInt(options.batchSize ?? 1000));
    const filter = call.request.transactionFilter;
    // With a filter, each response carries the transactions that match and the range of versions
    // it accounts for (`processed_range`), matched or not, as the hosted service does.
    const respond = (batch: RestTransaction[], first: number): TransactionsResponse => {
      const last = Number((batch.at(-1) as { version: string }).version);
      const kept = filter === undefined ? batch : batch.filter((tx) => matchesFilter(filter, tx));
      return {
        transactions: kept.map((tx) => protoFromJson(restToProto(tx))),
        chainId,
        ...(filter === undefined
          ? {}
          : { processedRange: { firstVersion: BigInt(first), lastVersion: BigInt(last) } }),
      };
    };
    let next = Number(start);
    let lastSent = Date.now();
    try {
      while (!cancelled && !closing && (end === null || next < Number(end))) {
        const limit = end === null ? batchSize : Math.min(batchSize, Number(end) - next);
        const rest = next > source.ledger().ledgerVersion ? [] : source.transactions(next, limit);
        if (rest.length === 0) {
          if (Date.now() - lastSent >= heartbeatMs) {
            await send(call, { transactions: [], chainId });
            lastSent = Date.now();
          }
          await new Promise((resolve) => setTimeout(resolve, 50));
          continue;
        }
        if (fault()) {
          injected++;
          refusing = options.faults?.refuseCalls ?? 2;
          // Part of the batch goes out first: the client must keep what it got and resume after it.
          const cut = Math.floor((rng as Rng).float() * rest.length);
          if (cut > 0) await send(call, respond(rest.slice(0, cut), next));
          if ((rng as Rng).float() < 0.5) call.end();
          else fail(call, 'devnet: injected break');
          return;
        }
        await send(call, respond(rest, next));
        lastSent = Date.now();
        next = Number((rest.at(-1) as { version: string }).version) + 1;
      }
      if (!cancelled && !closing) call.end();
    } catch {
      // The client went away mid-write; nothing to clean up beyond the stream itself.
    } finally {
      open.delete(call);
    }
  };

  const server = new Server();
  const implementation: RawDataServer = {
    getTransactions: (call) => {
      void getTransactions(call);
    },
    // The events-only stream is not something mdq reads.
    getEvents: (call) => {
      call.emit('error', { code: status.UNIMPLEMENTED, details: 'devnet: GetEvents is not served' });
    },
  };
  server.addService(RawDataService, implementation);
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync(`${options.host}:${options.port}`, ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    );
  });
  const shownHost = options.host === '0.0.0.0' || options.host === '::' ? '127.0.0.1' : options.host;
  return {
    url: `http://${shownHost}:${port}`,
    port,
    faultsInjected: () => injected,
    close: async () => {
      closing = true;
      for (const call of open) call.end();
      server.forceShutdown();
    },
  };
}

/** Ends the call; UNAVAILABLE is what the hosted service answers while a backend is away. */
function fail(call: Call, details: string, code: status = status.UNAVAILABLE): void {
  call.emit('error', { code, details, name: 'Error', message: details });
}

/** Writes with back-pressure: a slow client makes the server wait, as the hosted service does. */
async function send(call: Call, response: TransactionsResponse): Promise<void> {
  if (!call.write(response)) await once(call, 'drain');
}
