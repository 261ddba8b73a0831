import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  blockEpilogueTransaction,
  blockMetadataTransaction,
  dkgValidatorTransaction,
  genesisTransaction,
  scheduledTransaction,
  stateCheckpointTransaction,
  unknownTransaction,
  validatorTransaction,
} from '@mdq/chain/fixtures';
import type { StreamedChain } from '@mdq/devnet';

type Tx = Record<string, unknown>;

/**
 * A chain as mainnet makes it, around given user transactions: genesis, then blocks of
 * `block_metadata` (with its NewBlockEvent), 1–5 user transactions and a `block_epilogue`; now and
 * then a validator transaction (JWK or DKG), a scheduled transaction, an older `state_checkpoint`
 * ending, and once a transaction of a type number this build has never seen. Versions are
 * renumbered 0.. in order.
 */
export function mainnetShaped(users: readonly Tx[], unknownProtoType = 99): Tx[] {
  const out: Tx[] = [genesisTransaction()];
  const next = () => out.length;
  let height = 1;
  for (let i = 0; i < users.length; height++) {
    const block = users.slice(i, i + 1 + (height % 5));
    i += block.length;
    const first = String((block[0] as Tx)['timestamp']);
    const last = String((block.at(-1) as Tx)['timestamp']);
    out.push(blockMetadataTransaction(next(), height, first));
    if (height % 7 === 0) out.push(validatorTransaction(next(), first));
    if (height % 13 === 0) out.push(dkgValidatorTransaction(next(), first));
    for (const user of block) out.push({ ...user, version: String(next()) });
    if (height % 11 === 0) out.push(scheduledTransaction(next(), last));
    if (height === 17) out.push(unknownTransaction(next(), last, unknownProtoType));
    out.push(
      height % 19 === 0 ? stateCheckpointTransaction(next(), last) : blockEpilogueTransaction(next(), last),
    );
  }
  return out;
}

/** The chain for the devnet's gRPC server. */
export function streamedChain(txs: readonly Tx[], chainId: number): StreamedChain {
  const last = txs.at(-1) as Tx;
  return {
    ledger: () => ({
      chainId,
      ledgerVersion: txs.length - 1,
      oldestVersion: 0,
      ledgerTimestampUs: String(last['timestamp']),
      epoch: 9000,
      blockHeight: 0,
      oldestBlockHeight: 0,
    }),
    transactions: (start, limit) =>
      txs.slice(start, start + limit) as ReturnType<StreamedChain['transactions']>,
  };
}

/**
 * The two fullnode REST routes the indexer reads (`GET /v1` ledger info, `GET /v1/transactions`),
 * over the same transactions: the chain read over REST, through the SDK, as from a real node.
 */
export async function serveRest(
  txs: readonly Tx[],
  chainId: number,
): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const json = (body: unknown) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (url.pathname === '/v1' || url.pathname === '/v1/') {
      return json({
        chain_id: chainId,
        epoch: '9000',
        ledger_version: String(txs.length - 1),
        oldest_ledger_version: '0',
        ledger_timestamp: String((txs.at(-1) as Tx)['timestamp']),
        node_role: 'full_node',
        oldest_block_height: '0',
        block_height: '0',
        git_hash: 'test',
      });
    }
    if (url.pathname === '/v1/transactions') {
      const start = Number(url.searchParams.get('start') ?? 0);
      const limit = Number(url.searchParams.get('limit') ?? 25);
      if (start >= txs.length) {
        res.writeHead(404, { 'content-type': 'application/json' });
        return res.end('{"message":"not found","error_code":"transaction_not_found"}');
      }
      return json(txs.slice(start, start + limit));
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
