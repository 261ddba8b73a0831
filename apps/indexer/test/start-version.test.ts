import { sql } from '@mdq/db';
import { createTestDatabase, type TestDatabase } from '@mdq/db/testing';
import { type DevnetServer, startDevnetServer } from '@mdq/devnet';
import { noopNotifier } from '@mdq/jobs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fullnodeSource, runIndexer } from '../src/index';
import { devnetDecoder } from '../src/testing';

/*
 * MDQ_START_VERSION / `mdq indexer --from V`: the main follower starts at V on an empty checkpoint
 * and never reads history before it; once a checkpoint exists the start version is ignored.
 */
describe('start version on an empty checkpoint', () => {
  let devnet: DevnetServer;
  let test: TestDatabase;
  const start = 300;

  beforeAll(async () => {
    devnet = await startDevnetServer({ seed: 21, preset: 'tiny', blockIntervalMs: 0, port: 0 });
    test = await createTestDatabase();
  });
  afterAll(async () => {
    await devnet?.close();
    await test?.drop();
  });

  const run = (startVersion: number) => {
    return runIndexer({
      db: test.db,
      source: fullnodeSource(devnet.url),
      decode: devnetDecoder(devnet),
      notifier: noopNotifier,
      batchSize: 97,
      untilCaughtUp: true,
      startVersion,
    });
  };

  it('reads from the start version to the tip and nothing before it', async () => {
    const stats = await run(start);
    expect(stats.transactions).toBe(devnet.ledgerVersion() - start + 1);
    const { rows } = await sql<{ first: string | null; checkpoint: string | null }>`
      SELECT (SELECT min(transaction_version)::text FROM token_activities) AS first,
        (SELECT last_version::text FROM indexer_checkpoints WHERE name = 'main') AS checkpoint`.execute(
      test.db,
    );
    expect(Number(rows[0]?.first)).toBeGreaterThanOrEqual(start);
    expect(Number(rows[0]?.checkpoint)).toBe(devnet.ledgerVersion());
  });

  it('ignores the start version once the checkpoint exists', async () => {
    // Version 0 would re-read the whole chain; the checkpoint says it is all done.
    const stats = await run(0);
    expect(stats.transactions).toBe(0);
  });
});
