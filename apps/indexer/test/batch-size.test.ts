import { startDevnetServer } from '@mdq/devnet';
import { beforeAll, describe, expect, it } from 'vitest';
import { fullnodeSource } from '../src/index';
import { index, servers } from './support/index-both-ways';

/*
 * How a range is cut into batches is the runner's business, never the data's: one chain indexed
 * with different batch sizes gives the same tables, row for row (counts and order-independent
 * checksums of every column, last_transaction_version included).
 */
describe('batch size does not change what is stored', () => {
  let devnet: Awaited<ReturnType<typeof startDevnetServer>>;
  let reference: Awaited<ReturnType<typeof index>>;

  beforeAll(async () => {
    devnet = await startDevnetServer({ seed: 21, preset: 'tiny', blockIntervalMs: 0, port: 0 });
    servers.push(devnet);
    reference = await index(fullnodeSource(devnet.url), devnet, 500);
  }, 180_000);

  it('indexes the chain in large batches', () => {
    expect(reference.stats.failed).toBe(0);
    expect(reference.fingerprint['tokens']).not.toMatch(/^0:/);
  });

  it.each([5, 64])(
    'gives every table identical with batches of %i',
    async (size) => {
      const other = await index(fullnodeSource(devnet.url), devnet, size);
      expect(other.stats.batches).toBeGreaterThan(reference.stats.batches);
      expect(other.fingerprint).toEqual(reference.fingerprint);
    },
    300_000,
  );
});
