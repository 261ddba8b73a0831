import type { TransactionResponse } from '@aptos-labs/ts-sdk';
import {
  type ChannelOptions,
  type ClientReadableStream,
  credentials,
  Metadata,
  type ServiceError,
  status,
} from '@grpc/grpc-js';
import {
  type BooleanTransactionFilter,
  type ProtoTransaction,
  RawDataClient,
  streamedToRest,
  type TransactionsResponse,
} from '@mdq/chain/stream';
import type { Logger } from '@mdq/log';
import { type ChainSource, type ChainTip, type SourcePage, versionOf } from './source';
import { checkChainId, FatalSourceError } from './source-errors';

export interface GrpcSourceOptions {
  /** `http://host:port` (plaintext, as the devnet serves it) or `https://host[:port]` (TLS). */
  url: string;
  apiKey?: string;
  /** Sent as `x-aptos-request-name`, so the provider's dashboards name this client. */
  requestName?: string;
  /** Where the chain tip comes from: the stream has no "latest version" call (a fullnode's ledger info). */
  tip: () => Promise<ChainTip>;
  /** Refuse a stream whose chain id differs; default: the chain id the tip reports. */
  chainId?: number;
  /** Transactions per response asked of the server. */
  batchSize?: number;
  /** How long fetch() waits for a first transaction before answering "nothing new yet". */
  idleMs?: number;
  /** Reconnect backoff: first delay and cap (ms). */
  backoffMs?: number;
  maxBackoffMs?: number;
  /** Recorded chains have version gaps; the hosted stream never does. Default true. */
  contiguous?: boolean;
  /**
   * Sent as the request's `transaction_filter` (see transactionStreamFilter in @mdq/chain/stream):
   * the server skips the rest and says which versions each response accounts for.
   */
  transactionFilter?: BooleanTransactionFilter;
  log?: Logger;
  signal?: AbortSignal;
}

/** A stream that broke a promise the source relies on (order, chain id); never retried silently. */
export class StreamProtocolError extends Error {
  override readonly name = 'StreamProtocolError';
}

/** A key the service does not know, or one not allowed this stream: no retry cures that. */
const REFUSED = new Set<number>([status.UNAUTHENTICATED, status.PERMISSION_DENIED]);

/** Codes after which a call is simply made again; anything else (bad key, bad request) is thrown. */
const RETRYABLE = new Set<number>([
  status.UNAVAILABLE,
  status.DEADLINE_EXCEEDED,
  status.INTERNAL,
  status.UNKNOWN,
  status.RESOURCE_EXHAUSTED,
  status.ABORTED,
  status.CANCELLED,
]);

/** How long a partial batch waits for the stream's next response before the tip is asked. */
const LINGER_MS = 100;

/** Streamed batches run to megabytes; gRPC's 4 MiB default receive limit is too small. */
const CHANNEL: ChannelOptions = {
  'grpc.max_receive_message_length': 256 * 1024 * 1024,
  'grpc.keepalive_time_ms': 30_000,
  'grpc.keepalive_timeout_ms': 10_000,
  'grpc.keepalive_permit_without_calls': 1,
};

/**
 * The Aptos Transaction Stream (`aptos.indexer.v1.RawData/GetTransactions`) behind the indexer's
 * ChainSource. One server stream stays open while the indexer reads on from where it stopped;
 * fetch(start) at any other version (a restart, a retry) reopens the stream there. A stream that
 * ends or breaks is reopened after the last transaction handed out, with capped backoff, so a version
 * is never skipped or repeated; what arrives is checked (chain id, versions strictly increasing and,
 * on the hosted service, contiguous) before it is handed out.
 */
export function grpcSource(options: GrpcSourceOptions): ChainSource & { close(): void } {
  const url = new URL(options.url);
  const secure = url.protocol === 'https:';
  if (!secure && url.protocol !== 'http:')
    throw new TypeError(`gRPC URL must be http:// or https://: ${options.url}`);
  const target = `${url.hostname}:${url.port || (secure ? '443' : '80')}`;
  const client = new RawDataClient(
    target,
    secure ? credentials.createSsl() : credentials.createInsecure(),
    CHANNEL,
  );
  const metadata = new Metadata();
  if (options.apiKey) metadata.set('authorization', `Bearer ${options.apiKey}`);
  metadata.set('x-aptos-request-name', options.requestName ?? 'mdq-indexer');
  const contiguous = options.contiguous ?? true;
  const idleMs = options.idleMs ?? 1000;

  let expectedChainId: number | undefined = options.chainId;
  let highest = -1;
  let stream: ClientReadableStream<TransactionsResponse> | null = null;
  /** Next version the consumer will ask for; the open stream continues from there. */
  let cursor = -1;
  /** Converted, checked transactions not yet handed out, in order. */
  let buffer: TransactionResponse[] = [];
  /** Version the next streamed transaction must have (or exceed, on a gappy recorded chain). */
  let expectNext = -1;
  let failure: Error | null = null;
  let ended = false;
  let wake: (() => void) | null = null;
  let failures = 0;

  const notify = () => {
    const w = wake;
    wake = null;
    w?.();
  };

  const drop = () => {
    if (stream !== null) {
      stream.removeAllListeners();
      stream.on('error', () => undefined);
      stream.cancel();
    }
    stream = null;
  };

  /** Opens a stream at `start`. `resume` keeps what is buffered and continues right after it. */
  const open = (start: number, resume = false) => {
    drop();
    failure = null;
    ended = false;
    if (!resume) {
      buffer = [];
      cursor = start;
    }
    expectNext = start;
    const call = client.getTransactions(
      {
        startingVersion: BigInt(start),
        batchSize: options.batchSize ? BigInt(options.batchSize) : undefined,
        transactionFilter: options.transactionFilter,
      },
      metadata,
    );
    stream = call;
    call.on('data', (response: TransactionsResponse) => {
      if (stream !== call) return;
      try {
        accept(response);
        failures = 0;
      } catch (error) {
        failure = error as Error;
        drop();
      }
      notify();
    });
    call.on('error', (error: ServiceError) => {
      if (stream !== call) return;
      failure = error;
      stream = null;
      notify();
    });
    call.on('end', () => {
      if (stream !== call) return;
      ended = true;
      stream = null;
      notify();
    });
  };

  const accept = (response: TransactionsResponse) => {
    const chainId = response.chainId === undefined ? undefined : Number(response.chainId);
    checkChainId(
      chainId,
      expectedChainId,
      `the Transaction Stream ${options.url}`,
      options.chainId === undefined ? 'the fullnode (APTOS_FULLNODE_URL) serves' : undefined,
    );
    // A filtered stream says which versions the response accounts for, sent or skipped: it is
    // contiguous by range. Without a range (an unfiltered stream, or a server that ignores the
    // filter) it is contiguous by version. An empty response without a range is a heartbeat.
    const range = response.processedRange;
    const first = range === undefined ? null : Number(range.firstVersion ?? 0);
    const last = range === undefined ? null : Number(range.lastVersion ?? 0);
    if (first !== null && last !== null && last >= expectNext) {
      if (contiguous && first > expectNext) {
        throw new StreamProtocolError(`stream skipped from version ${expectNext} to range ${first}..${last}`);
      }
    }
    for (const message of response.transactions ?? []) {
      const version = Number((message as ProtoTransaction).version);
      if (version < expectNext) {
        // Already handed out or buffered: a repeat is dropped, never written twice.
        continue;
      }
      if (contiguous && first === null && version !== expectNext) {
        throw new StreamProtocolError(`stream skipped from version ${expectNext} to ${version}`);
      }
      if (last !== null && version > last) {
        throw new StreamProtocolError(`stream sent version ${version} outside its range ..${last}`);
      }
      buffer.push(streamedToRest(message) as unknown as TransactionResponse);
      expectNext = version + 1;
      highest = Math.max(highest, version);
    }
    if (last !== null && last >= expectNext) {
      expectNext = last + 1;
      highest = Math.max(highest, last);
    }
  };

  const waitForNews = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        wake = null;
        resolve();
      }, ms);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });

  const backoff = async () => {
    failures++;
    const base = options.backoffMs ?? 200;
    const delay = Math.min(base * 2 ** Math.min(failures - 1, 10), options.maxBackoffMs ?? 10_000);
    await new Promise((resolve) => setTimeout(resolve, delay));
  };

  const tip = async (): Promise<ChainTip> => {
    const known = await options.tip();
    if (expectedChainId === undefined && known.chainId !== undefined) expectedChainId = known.chainId;
    return { ...known, ledgerVersion: Math.max(known.ledgerVersion, highest) };
  };

  return {
    // A stream of a recorded chain skips versions on purpose: the follow loop's check allows it.
    ...(contiguous ? {} : { sparse: true }),
    // The stream holds all history: an empty checkpoint with no start version starts at genesis.
    historyStart: { version: 0, why: 'the start of the chain (the Transaction Stream holds all history)' },
    tip,
    async fetch(start, limit): Promise<SourcePage> {
      if (expectedChainId === undefined) await tip();
      if (start !== cursor) open(start);
      const deadline = Date.now() + idleMs;
      // Batches are filled up to `limit` (as a fullnode page run is): a short batch only at the tip.
      while (buffer.length < limit && !options.signal?.aborted) {
        if (failure !== null) {
          const error = failure;
          const code = (error as Partial<ServiceError>).code;
          if (error instanceof FatalSourceError) throw error;
          if (code !== undefined && REFUSED.has(code)) {
            throw new FatalSourceError(
              `the Transaction Stream refused the key (${status[code]}: ${(error as ServiceError).details}): set APTOS_GRPC_API_KEY to a valid key`,
            );
          }
          if (code !== undefined && !RETRYABLE.has(code)) throw error;
          options.log?.warn(
            { err: error.message, from: expectNext, attempt: failures + 1 },
            'gRPC stream broke; reconnecting',
          );
          await backoff();
          open(expectNext, true);
          continue;
        }
        if (ended || stream === null) {
          // A server may end a stream anywhere: carry on right after the last transaction received.
          await backoff();
          open(expectNext, true);
          continue;
        }
        // Progress is versions accounted for: a filtered stream may cover many without sending one.
        const before = expectNext;
        const nothingYet = before === cursor;
        await waitForNews(nothingYet ? Math.max(0, deadline - Date.now()) : LINGER_MS);
        if (expectNext > before || failure !== null || ended) continue;
        if (nothingYet) {
          // Nothing new yet (heartbeats at most): not an error, the indexer polls again.
          if (Date.now() >= deadline) return [];
          continue;
        }
        // A partial batch and a quiet stream: hand it out if the chain holds nothing newer yet.
        if ((await tip()).ledgerVersion < expectNext) break;
      }
      const out: SourcePage = buffer.splice(0, limit);
      // Everything buffered handed out: the page accounts for all versions received so far.
      const through = buffer.length === 0 ? expectNext - 1 : versionOf(out.at(-1) as TransactionResponse);
      if (through < cursor) return out;
      cursor = through + 1;
      out.through = through;
      return out;
    },
    close() {
      drop();
      client.close();
    },
  };
}
