import type { FastifyInstance, FastifyReply } from 'fastify';
import type { RestLedgerInfo } from '../render/rest-types';
import { errors, FullnodeError, parseU64, sendError } from './errors';
import type { BlockInfo, ChainSource, LedgerState } from './source';

/** A real fullnode never returns more than 100 transactions per page; 25 is its default. */
export const MAX_PAGE = 100;
const DEFAULT_PAGE = 25;

function ledgerInfo(l: LedgerState): RestLedgerInfo {
  return {
    chain_id: l.chainId,
    epoch: String(l.epoch),
    ledger_version: String(l.ledgerVersion),
    oldest_ledger_version: String(l.oldestVersion),
    ledger_timestamp: l.ledgerTimestampUs,
    node_role: 'full_node',
    oldest_block_height: String(l.oldestBlockHeight),
    block_height: String(l.blockHeight),
    git_hash: 'mdq-devnet',
    ...(l.sparse === true ? { sparse: true as const } : {}),
  };
}

/** The X-Aptos-* headers every fullnode response carries. */
function withLedgerHeaders(reply: FastifyReply, l: LedgerState): FastifyReply {
  return reply.headers({
    'x-aptos-chain-id': String(l.chainId),
    'x-aptos-ledger-version': String(l.ledgerVersion),
    'x-aptos-ledger-oldest-version': String(l.oldestVersion),
    'x-aptos-ledger-timestampusec': l.ledgerTimestampUs,
    'x-aptos-epoch': String(l.epoch),
    'x-aptos-block-height': String(l.blockHeight),
    'x-aptos-oldest-block-height': String(l.oldestBlockHeight),
    ...(l.sparse === true ? { 'x-mdq-sparse': 'true' } : {}),
  });
}

function blockJson(b: BlockInfo, transactions: unknown[] | null): Record<string, unknown> {
  return {
    block_height: String(b.height),
    block_hash: b.hash,
    block_timestamp: b.timestampUs,
    first_version: String(b.firstVersion),
    last_version: String(b.lastVersion),
    transactions,
  };
}

/** JSON arrays of transactions are concatenated by hand: Fastify's generic serializer is the bottleneck otherwise. */
function sendJson(reply: FastifyReply, body: string): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(body);
}

export function registerRoutes(app: FastifyInstance, source: ChainSource): void {
  app.setErrorHandler((err, _req, reply) => {
    if (err instanceof FullnodeError) return sendError(withLedgerHeaders(reply, source.ledger()), err);
    return reply
      .code(500)
      .send({ message: 'internal error', error_code: 'internal_error', vm_error_code: null });
  });

  const ledgerRoute = async (_req: unknown, reply: FastifyReply) => {
    const l = source.ledger();
    return withLedgerHeaders(reply, l).send(ledgerInfo(l));
  };
  app.get('/v1', ledgerRoute);
  app.get('/v1/', ledgerRoute);
  app.get('/v1/-/healthy', async () => ({ message: 'aptos-node:ok' }));

  app.get<{ Querystring: { start?: string; limit?: string } }>('/v1/transactions', async (req, reply) => {
    const l = source.ledger();
    const limitIn = parseU64('limit', req.query.limit);
    const startIn = parseU64('start', req.query.start);
    if (limitIn === 0) throw errors.badLimit(0);
    const limit = Math.min(limitIn ?? DEFAULT_PAGE, MAX_PAGE);
    // Without `start` a fullnode returns the latest page.
    const start = startIn ?? Math.max(l.oldestVersion, l.ledgerVersion - limit + 1);
    if (start > l.ledgerVersion) throw errors.versionNotFound(start);
    if (start < l.oldestVersion) throw errors.pruned(start);
    const txs = source.transactions(start, Math.min(limit, l.ledgerVersion - start + 1));
    return sendJson(withLedgerHeaders(reply, l), `[${txs.map((t) => JSON.stringify(t)).join(',')}]`);
  });

  app.get<{ Params: { version: string } }>('/v1/transactions/by_version/:version', async (req, reply) => {
    const l = source.ledger();
    const v = parseU64('version', req.params.version) as number;
    if (v < l.oldestVersion) throw errors.pruned(v);
    const tx = v <= l.ledgerVersion ? source.transaction(v) : null;
    if (tx === null) throw errors.transactionNotFound(v);
    return sendJson(withLedgerHeaders(reply, l), JSON.stringify(tx));
  });

  type BlockReq = { Params: { id: string }; Querystring: { with_transactions?: string } };
  const blockRoute =
    (byVersion: boolean) =>
    async (req: { params: { id: string }; query: { with_transactions?: string } }, reply: FastifyReply) => {
      const l = source.ledger();
      const id = parseU64(byVersion ? 'version' : 'block_height', req.params.id) as number;
      if (byVersion && id < l.oldestVersion) throw errors.pruned(id);
      const block = byVersion ? source.blockByVersion(id) : source.blockByHeight(id);
      if (block === null)
        throw errors.blockNotFound(byVersion ? `Ledger version(${id})` : `Block height(${id})`);
      const withTxs = req.query.with_transactions === 'true';
      const txs = withTxs
        ? source.transactions(block.firstVersion, block.lastVersion - block.firstVersion + 1)
        : null;
      return withLedgerHeaders(reply, l).send(blockJson(block, txs));
    };
  app.get<BlockReq>('/v1/blocks/by_version/:id', blockRoute(true));
  app.get<BlockReq>('/v1/blocks/by_height/:id', blockRoute(false));
}
