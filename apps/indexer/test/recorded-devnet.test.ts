import { join } from 'node:path';
import { testFixturesRoot } from '@mdq/chain/fixtures';
import { loadRecorded, startDevnetServer } from '@mdq/devnet';
import { describe, expect, it } from 'vitest';
import { fullnodeSource } from '../src/index';
import { index, servers } from './support/index-both-ways';

/*
 * `mdq start` / `mdq indexer` with APTOS_FULLNODE_URL at `mdq devnet --transactions DIR`: the
 * REST source is built without any sparse option, as the CLI builds it, and learns from the
 * devnet's ledger info that the versions skip.
 */
const root = testFixturesRoot();
describe.skipIf(root === null)('a recorded devnet behind the plain REST source', () => {
  it('indexes every recorded file, up to the last version, without a gap error', async () => {
    const dir = join(root as string, 'transactions');
    const recorded = await startDevnetServer({ port: 0, transactionsDir: dir });
    servers.push(recorded);
    const versions = loadRecorded(dir).transactions.map((t) => t.version);
    const { stats } = await index(fullnodeSource(recorded.url), recorded);
    expect(stats.failed).toBe(0);
    expect(stats.transactions).toBe(versions.length);
    expect(stats.lastVersion).toBe(versions.at(-1));
  });
});
