import aptosClient from '@aptos-labs/aptos-client';
import {
  Aptos,
  AptosConfig,
  type ClientRequest,
  type ClientResponse,
  getAptosFullNode,
  type LedgerInfo,
  Network,
  type TransactionResponse,
} from '@aptos-labs/ts-sdk';
import { checkChainId, FatalSourceError, parseRetryAfter, RateLimitedError } from './source-errors';

export interface ChainTip {
  ledgerVersion: number;
  oldestVersion: number;
  /** The network's chain id, when the source knows it (a fullnode's ledger info does). */
  chainId?: number;
}

/**
 * Where the indexer reads transactions from. The fullnode REST source is the first; a gRPC
 * transaction-stream source can implement the same two calls without touching the decoder.
 */
export interface ChainSource {
  /**
   * Versions may legitimately skip (a recorded chain of chosen transactions). Every other source
   * must answer contiguous versions: the follow loop refuses a page that skips one. Read after the
   * first `tip()`, which may learn it (fullnodeSource: the ledger info's `"sparse": true`).
   */
  readonly sparse?: boolean;
  /**
   * Where history starts when the checkpoint is empty and no start version is set; default: the
   * tip's oldest version (what a pruned fullnode still has). `why` goes into the log line.
   */
  readonly historyStart?: { version: number; why: string };
  tip(): Promise<ChainTip>;
  /** Transactions with version >= start in version order, at most `limit`; may return fewer. */
  fetch(start: number, limit: number): Promise<SourcePage>;
}

/**
 * A page of transactions. A filtered stream also says the last version the page accounts for
 * (`through`, from the Transaction Stream's `processed_range`): the versions between its
 * transactions were skipped by the server's filter, not lost, so the page is contiguous by range.
 */
export type SourcePage = TransactionResponse[] & { through?: number };

/** A fullnode answers at most 100 transactions per request. */
const PAGE = 100;

export interface FullnodeSourceOptions {
  concurrency?: number;
  sparse?: boolean;
  /** APTOS_FULLNODE_API_KEY: sent as `authorization: Bearer` on every call (data and tip). */
  apiKey?: string;
  /** Refuse a node of another network (its ledger info's chain id). */
  chainId?: number;
}

export function fullnodeSource(fullnodeUrl: string, options: FullnodeSourceOptions = {}): ChainSource {
  const aptos = new Aptos(
    new AptosConfig({
      // The SDK only names endpoints by network, and ours is given; CUSTOM would print a note on
      // every start, a line too many for a process that must fail in one.
      network: Network.LOCAL,
      fullnode: fullnodeUrl,
      client: { provider: rateLimitAware },
      ...(options.apiKey ? { clientConfig: { API_KEY: options.apiKey } } : {}),
    }),
  );
  const concurrency = options.concurrency ?? 4;
  let knownLedger = -1;
  let oldest = 0;
  let sparse = options.sparse === true;

  const tip = async (): Promise<ChainTip> => {
    // Not aptos.getLedgerInfo(): the SDK memoizes it for 10 s per network name, not per node, so
    // the tip would lag the chain and two nodes in one process (all are "local" here) would share one.
    const info = await getAptosFullNode<Record<string, never>, LedgerInfo>({
      aptosConfig: aptos.config,
      originMethod: 'getLedgerInfo',
      path: '',
    })
      .then((response) => response.data)
      .catch(refused);
    checkChainId(info.chain_id, options.chainId, `the fullnode ${fullnodeUrl}`);
    knownLedger = Number(info.ledger_version);
    oldest = Number(info.oldest_ledger_version);
    // A node serving a recorded chain (`mdq devnet --transactions`) says its versions skip; the
    // follow loop reads `sparse` after the first tip, so the holes are followed, not a gap.
    if ((info as { sparse?: unknown }).sparse === true) sparse = true;
    return {
      ledgerVersion: knownLedger,
      oldestVersion: oldest,
      chainId: info.chain_id,
    };
  };

  const page = async (offset: number, limit: number): Promise<TransactionResponse[]> => {
    try {
      return await aptos.getTransactions({ options: { offset, limit } });
    } catch (error) {
      // A version past the ledger is "not found": at the tip that just means nothing new yet.
      if ((error as { status?: number }).status === 404) return [];
      if (isPruned(error)) {
        const known = await tip().catch(() => null);
        const from = known?.oldestVersion ?? oldest;
        throw new FatalSourceError(
          `the fullnode has pruned version ${offset} (its oldest is ${from}): set MDQ_START_VERSION to ${from} or later for partial history, or read all history from the Transaction Stream (APTOS_GRPC_URL)`,
        );
      }
      return refused(error);
    }
  };

  return {
    get sparse() {
      return sparse;
    },
    tip,
    async fetch(start, limit) {
      if (start > knownLedger) {
        // At the tip, ask for the next page directly: one round trip instead of a tip() and a page.
        const next = await page(start, Math.min(PAGE, limit));
        const last = next.at(-1);
        if (last) knownLedger = Math.max(knownLedger, versionOf(last));
        return next;
      }
      // Pages up to the known ledger version are fetched a few at a time, then stitched in
      // order; a short page (a gap in a recorded chain, or the tip) ends the batch so versions
      // stay in order as received.
      const end = Math.min(start + limit - 1, knownLedger);
      const offsets: number[] = [];
      for (let offset = start; offset <= end; offset += PAGE) offsets.push(offset);
      const out: TransactionResponse[] = [];
      let next = start;
      for (let i = 0; i < offsets.length; i += concurrency) {
        const group = offsets.slice(i, i + concurrency);
        // Settled in version order: the first page that failed is the one reported (a start
        // version the node pruned names that version, not whichever later page failed first), and
        // a page after a short one is never read, so its failure is not either.
        const pages = await Promise.allSettled(
          group.map((offset) => page(offset, Math.min(PAGE, end - offset + 1))),
        );
        let short = false;
        for (const [j, settled] of pages.entries()) {
          if (settled.status === 'rejected') throw settled.reason;
          const txs = settled.value;
          for (const tx of txs) {
            const v = versionOf(tx);
            if (v >= next) {
              out.push(tx);
              next = v + 1;
            }
          }
          const offset = group[j] as number;
          if (txs.length < Math.min(PAGE, end - offset + 1)) {
            short = true;
            break;
          }
        }
        if (short) break;
      }
      return out.slice(0, limit);
    },
  };
}

/** 401/403: the key is missing, wrong or not allowed this node; retrying cannot fix that. */
function refused(error: unknown): never {
  const status = (error as { status?: number }).status;
  if (status === 401 || status === 403) {
    throw new FatalSourceError(
      `the fullnode refused the request (HTTP ${status}): set APTOS_FULLNODE_API_KEY to a valid key for this node`,
    );
  }
  throw error;
}

function isPruned(error: unknown): boolean {
  const { status, data } = error as { status?: number; data?: { error_code?: unknown } };
  return status === 410 || data?.error_code === 'version_pruned';
}

/**
 * The SDK's HTTP client, with one addition: a 429 becomes a RateLimitedError carrying the node's
 * `Retry-After`, which the SDK's own error would drop (it keeps no response headers).
 */
async function rateLimitAware<Req, Res>(request: ClientRequest<Req>): Promise<ClientResponse<Res>> {
  const response = await aptosClient<Res>(request as Parameters<typeof aptosClient>[0]);
  if (response.status === 429) {
    const wait = parseRetryAfter((response.headers as Record<string, unknown> | undefined)?.['retry-after']);
    throw new RateLimitedError('the fullnode answered 429 Too Many Requests', wait ?? 1_000);
  }
  return response as ClientResponse<Res>;
}

export function versionOf(tx: TransactionResponse): number {
  return 'version' in tx ? Number(tx.version) : -1;
}
