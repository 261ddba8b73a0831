import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Aptos, AptosConfig, Network } from '@aptos-labs/ts-sdk';
import { protoToRest } from '@mdq/chain/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DevnetServer, loadRecorded, startDevnetServer } from '../src/index';
import { fixturesDir } from './helpers';

const dir = fixturesDir();
if (dir === null)
  console.warn('recorded-mode tests skipped: no shared fixtures folder (../shared/fixtures/aptos-mainnet)');

function countJson(d: string): number {
  let n = 0;
  for (const name of readdirSync(d)) {
    const p = join(d, name);
    if (statSync(p).isDirectory()) n += countJson(p);
    else if (name.endsWith('.json')) n++;
  }
  return n;
}

describe.skipIf(dir === null)('recorded mainnet mode (--transactions DIR)', () => {
  let server: DevnetServer;
  let aptos: Aptos;
  beforeAll(async () => {
    server = await startDevnetServer({ transactionsDir: dir as string, port: 0 });
    aptos = new Aptos(new AptosConfig({ network: Network.CUSTOM, fullnode: server.url }));
  });
  afterAll(() => server.close());

  it('serves every recorded file, in version order, to an indexer that pages by last version + 1', async () => {
    const files = countJson(dir as string);
    const seen: number[] = [];
    let start = 0;
    for (;;) {
      const res = await fetch(`${server.url}/transactions?start=${start}&limit=7`);
      if (res.status === 404) break;
      const page = (await res.json()) as { version: string }[];
      seen.push(...page.map((t) => Number(t.version)));
      start = Number(page.at(-1)?.version) + 1;
    }
    expect(seen).toHaveLength(files);
    expect([...seen].sort((a, b) => a - b)).toEqual(seen);
    expect((await aptos.getLedgerInfo()).ledger_version).toBe(String(seen.at(-1)));
  });

  it('says it is sparse, in the ledger info and a header', async () => {
    const res = await fetch(server.url);
    expect(res.headers.get('x-mdq-sparse')).toBe('true');
    expect(((await res.json()) as { sparse?: unknown }).sparse).toBe(true);
  });

  it('answers a range starting in a gap with the next recorded transactions; by_version in a gap is 404', async () => {
    const [first] = await aptos.getTransactions({ options: { offset: 2382251000, limit: 1 } });
    expect((first as { version: string } | undefined)?.version).toBe('2382251863');
    const gap = await fetch(`${server.url}/transactions/by_version/2382251000`);
    expect(gap.status).toBe(404);
    const tx = await aptos.getTransactionByVersion({ ledgerVersion: 2382251863 });
    expect(tx.type).toBe('user_transaction');
    const block = await aptos.getBlockByVersion({ ledgerVersion: 2382251863 });
    expect(block.block_height).toBe('292447858');
  });

  it('serves what @mdq/chain protoToRest produces for each file', () => {
    const { transactions } = loadRecorded(dir as string);
    for (const r of transactions) expect(r.tx).toEqual(protoToRest(JSON.parse(readFileSync(r.file, 'utf8'))));
    expect(transactions.length).toBeGreaterThan(50);
  });
});
