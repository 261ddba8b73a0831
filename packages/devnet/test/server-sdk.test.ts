import { Aptos, AptosApiError, AptosConfig, isUserTransactionResponse, Network } from '@aptos-labs/ts-sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DevnetServer, startDevnetServer } from '../src/index';

let server: DevnetServer;
let aptos: Aptos;

beforeAll(async () => {
  server = await startDevnetServer({
    preset: 'tiny',
    seed: 11,
    port: 0,
    blockIntervalMs: 0,
    oldestVersion: 10,
  });
  aptos = new Aptos(new AptosConfig({ network: Network.CUSTOM, fullnode: server.url }));
});
afterAll(() => server.close());

async function status(path: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${server.url}${path}`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('fullnode REST through @aptos-labs/ts-sdk', () => {
  it('getLedgerInfo', async () => {
    const info = await aptos.getLedgerInfo();
    expect(info.chain_id).toBe(4);
    expect(info.ledger_version).toBe(String(server.facts()?.chain.lastVersion));
    expect(info.block_height).toBe(String((server.facts()?.chain.blocks ?? 0) - 1));
    expect(info.oldest_ledger_version).toBe('10');
    expect(info.node_role).toBe('full_node');
    expect(Number(info.block_height)).toBeGreaterThan(0);
    expect(info.ledger_timestamp).toBe(String(Date.UTC(2026, 0, 1) * 1000));
    // A generated chain is contiguous: no sparse flag.
    const res = await fetch(server.url);
    expect(res.headers.get('x-mdq-sparse')).toBeNull();
    expect(await res.json()).not.toHaveProperty('sparse');
  });

  it('getTransactions pages of at most 100 with the REST user transaction shape', async () => {
    const txs = await aptos.getTransactions({ options: { offset: 10, limit: 100 } });
    expect(txs).toHaveLength(100);
    expect((txs[0] as { version: string } | undefined)?.version).toBe('10');
    let last = 0;
    for (const tx of txs) {
      if (!isUserTransactionResponse(tx)) {
        expect(['block_metadata_transaction', 'block_epilogue_transaction']).toContain(tx.type);
        continue;
      }
      expect(tx.hash).toMatch(/^0x[0-9a-f]{64}$/);
      expect(tx.success).toBe(true);
      expect(tx.payload.type).toBe('entry_function_payload');
      expect(Number(tx.timestamp)).toBeGreaterThanOrEqual(last);
      last = Number(tx.timestamp);
      expect(tx.events.at(-1)?.type).toBe('0x1::transaction_fee::FeeStatement');
      for (const e of tx.events) {
        expect(e.guid.account_address).toMatch(/^0x[0-9a-f]{1,64}$/);
        expect(typeof e.data).toBe('object');
      }
      for (const c of tx.changes)
        expect(['write_resource', 'delete_resource', 'write_table_item', 'delete_table_item']).toContain(
          c.type,
        );
    }
    const many = await status('/transactions?start=10&limit=1000');
    expect(many.status).toBe(200);
    expect(many.body).toHaveLength(100);
  });

  it('getTransactionByVersion equals the page entry', async () => {
    const [fromPage] = await aptos.getTransactions({ options: { offset: 42, limit: 1 } });
    const one = await aptos.getTransactionByVersion({ ledgerVersion: 42 });
    expect(one).toEqual(fromPage);
  });

  it('answers range errors as a fullnode does', async () => {
    const tip = server.ledgerVersion();
    const beyond = await status(`/transactions?start=${tip + 1}`);
    expect(beyond.status).toBe(404);
    expect(beyond.body).toEqual({
      message: expect.any(String),
      error_code: 'version_not_found',
      vm_error_code: null,
    });
    expect((await status(`/transactions/by_version/${tip + 1}`)).body.error_code).toBe(
      'transaction_not_found',
    );
    const pruned = await status('/transactions?start=3');
    expect(pruned.status).toBe(410);
    expect(pruned.body.error_code).toBe('version_pruned');
    expect((await status('/transactions/by_version/3')).status).toBe(410);
    expect((await status('/transactions?limit=0')).status).toBe(400);
    expect((await status('/transactions?start=-1')).status).toBe(400);
    expect((await status('/transactions?start=abc')).body.error_code).toBe('web_framework_error');
    await expect(aptos.getTransactionByVersion({ ledgerVersion: 10_000 })).rejects.toBeInstanceOf(
      AptosApiError,
    );
  });

  it('serves blocks by version and height', async () => {
    const block = await aptos.getBlockByVersion({ ledgerVersion: 50, options: { withTransactions: true } });
    expect(Number(block.first_version)).toBeLessThanOrEqual(50);
    expect(Number(block.last_version)).toBeGreaterThanOrEqual(50);
    expect(block.transactions?.length).toBe(Number(block.last_version) - Number(block.first_version) + 1);
    const same = await aptos.getBlockByHeight({ blockHeight: Number(block.block_height) });
    expect(same.block_hash).toBe(block.block_hash);
  });
});
