import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DevnetServer, type RestTransaction, startDevnetServer, streamTransactions } from '../src/index';

type Json = Record<string, unknown>;
const field = (tx: RestTransaction, name: string) => (tx as Json)[name];

/** Cuts a version-ordered chain into blocks at each block_metadata_transaction. */
function blocksOf(txs: RestTransaction[]): RestTransaction[][] {
  const blocks: RestTransaction[][] = [];
  for (const tx of txs) {
    if (tx.type === 'block_metadata_transaction') blocks.push([]);
    blocks.at(-1)?.push(tx);
  }
  return blocks;
}

describe('block structure', () => {
  const options = { preset: 'tiny' as const, seed: 4 };
  const txs = [...streamTransactions(options)];
  const blocks = blocksOf(txs);

  it('lays every block out as mainnet does: metadata, (validator), users, epilogue', () => {
    expect(txs[0]?.type).toBe('block_metadata_transaction');
    expect(blocks).toHaveLength(150);
    expect(blocks.flat()).toHaveLength(txs.length);
    let lastRound = 0;
    blocks.forEach((block, height) => {
      const [metadata, ...rest] = block as [RestTransaction, ...RestTransaction[]];
      const end = rest.pop() as RestTransaction;
      expect(end.type).toBe('block_epilogue_transaction');
      const endInfo = field(end, 'block_end_info') as Json;
      expect(Object.keys(endInfo).sort()).toEqual([
        'block_approx_output_size',
        'block_effective_block_gas_units',
        'block_gas_limit_reached',
        'block_output_limit_reached',
      ]);
      expect(field(end, 'state_checkpoint_hash')).toMatch(/^0x[0-9a-f]{64}$/);
      if (rest[0]?.type === 'validator_transaction') {
        const validator = rest.shift() as RestTransaction;
        expect(field(validator, 'validator_transaction_type')).toBe('observed_jwk_update');
        expect((field(validator, 'events') as Json[])[0]?.['type']).toBe('0x1::jwks::ObservedJWKsUpdated');
      }
      expect(rest.map((t) => t.type)).toEqual([
        'user_transaction',
        'user_transaction',
        'user_transaction',
        'user_transaction',
      ]);
      // Every transaction of a block carries the block's timestamp.
      expect(new Set(block.map((t) => field(t, 'timestamp'))).size).toBe(1);
      const event = (field(metadata, 'events') as Json[])[0] as Json;
      expect(event['type']).toBe('0x1::block::NewBlockEvent');
      const data = event['data'] as Json;
      expect(data['height']).toBe(String(height));
      expect(data['hash']).toBe(field(metadata, 'id'));
      expect(data['time_microseconds']).toBe(field(metadata, 'timestamp'));
      expect(data['epoch']).toBe(field(metadata, 'epoch'));
      expect(Number(field(metadata, 'round'))).toBeGreaterThan(lastRound);
      lastRound = Number(field(metadata, 'round'));
      expect(field(metadata, 'proposer')).toMatch(/^0x[0-9a-f]{64}$/);
      expect(field(metadata, 'failed_proposer_indices')).toEqual([]);
      expect(Array.isArray(field(metadata, 'previous_block_votes_bitvec'))).toBe(true);
    });
    expect(txs.filter((t) => t.type === 'validator_transaction')).toHaveLength(1);
  });

  it('ends blocks with state_checkpoint_transaction on request, the market unchanged', () => {
    const old = [...streamTransactions({ ...options, blockEnding: 'state_checkpoint' })];
    expect(old.map((t) => t.type)).toEqual(
      txs.map((t) => (t.type === 'block_epilogue_transaction' ? 'state_checkpoint_transaction' : t.type)),
    );
    const users = (list: RestTransaction[]) =>
      JSON.stringify(list.filter((t) => t.type === 'user_transaction'));
    expect(users(old)).toBe(users(txs));
    const checkpoint = old.find((t) => t.type === 'state_checkpoint_transaction') as Json;
    expect(Object.keys(checkpoint)).not.toContain('block_end_info');
  });
});

describe('blocks over REST', () => {
  let server: DevnetServer;
  beforeAll(async () => {
    server = await startDevnetServer({ preset: 'tiny', seed: 4, port: 0, blockIntervalMs: 0 });
  });
  afterAll(() => server.close());

  const get = async (path: string) => (await (await fetch(`${server.url}${path}`)).json()) as Json;

  it('agrees with the transactions, the ledger info and the facts', async () => {
    const facts = server.facts();
    const ledger = await get('');
    expect(ledger['ledger_version']).toBe(String(facts?.chain.lastVersion));
    expect(ledger['block_height']).toBe(String((facts?.chain.blocks ?? 0) - 1));
    let next = 0;
    for (const height of [0, 1, 99, 149]) {
      const block = await get(`/blocks/by_height/${height}?with_transactions=true`);
      const list = block['transactions'] as RestTransaction[];
      expect(list[0]?.type).toBe('block_metadata_transaction');
      expect(field(list[0] as RestTransaction, 'id')).toBe(block['block_hash']);
      expect(list.at(-1)?.type).toBe('block_epilogue_transaction');
      expect(list.map((t) => Number(t.version))).toEqual(
        list.map((_, i) => Number(block['first_version']) + i),
      );
      expect(block['last_version']).toBe(list.at(-1)?.version);
      if (height === 0 || height === 1) expect(Number(block['first_version'])).toBe(next);
      next = Number(block['last_version']) + 1;
      const byVersion = await get(`/blocks/by_version/${block['last_version']}`);
      expect(byVersion['block_height']).toBe(String(height));
    }
    expect(next - 1).toBe(facts?.chain.lastVersion);
  });

  it('puts the facts on the versions of the user transactions that made them', async () => {
    const facts = server.facts();
    const sale = facts?.sales[0];
    expect(sale).toBeDefined();
    const tx = await get(`/transactions/by_version/${sale?.version}`);
    expect(tx['type']).toBe('user_transaction');
    expect(tx['timestamp']).toBe(String(sale?.timestampUs));
    const types = (tx['events'] as Json[]).map((e) => e['type']);
    expect(
      types.some((t) =>
        /::events::(ListingFilled|TokenOfferFilled|CollectionOfferFilled)Event$/.test(String(t)),
      ),
    ).toBe(true);
    const created = facts?.collections[0]?.createdVersion as number;
    expect((await get(`/transactions/by_version/${created}`))['type']).toBe('user_transaction');
  });
});
