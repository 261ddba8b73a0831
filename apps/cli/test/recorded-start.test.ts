import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { testFixturesRoot } from '@mdq/chain/fixtures';
import { sql } from '@mdq/db';
import { createTestDatabase, type TestDatabase } from '@mdq/db/testing';
import { type DevnetServer, loadRecorded, startDevnetServer } from '@mdq/devnet';
import { createRedis } from '@mdq/jobs';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnCli } from './run-cli';
import { waitFor } from './wait-for';

/*
 * The README's recipe for real chain data, as an operator runs it: `mdq devnet --transactions DIR`
 * serves the recorded mainnet transactions (versions far apart, blocks of every kind), and a whole
 * `mdq start` process with APTOS_FULLNODE_URL at it indexes every file up to the last version,
 * fails none, serves the data, and stops cleanly on Ctrl-C.
 */
const root = testFixturesRoot();
const START_TIMEOUT_MS = 180_000;

describe.skipIf(root === null)('mdq start at a recorded devnet (needs ../shared/fixtures)', () => {
  let devnet: DevnetServer | undefined;
  let database: TestDatabase | undefined;
  const prefix = `mdq-recorded-${randomBytes(4).toString('hex')}`;
  afterAll(async () => {
    await devnet?.close();
    await database?.drop();
    const redis = createRedis(process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379');
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  it('indexes every recorded file, serves it, and exits 0 on SIGINT', {
    timeout: START_TIMEOUT_MS * 2,
  }, async () => {
    const dir = join(root as string, 'transactions');
    devnet = await startDevnetServer({ port: 0, transactionsDir: dir });
    const versions = loadRecorded(dir).transactions.map((t) => t.version);
    const last = versions.at(-1) as number;
    database = await createTestDatabase({ migrate: false });
    const apiKey = `recorded-${randomBytes(12).toString('hex')}`;

    const child = spawnCli(['start'], {
      DATABASE_URL: database.url,
      APTOS_NETWORK: 'mainnet',
      APTOS_FULLNODE_URL: devnet.url,
      MDQ_API_KEY: apiKey,
      MDQ_QUEUE_PREFIX: prefix,
      PORT: '0',
      MDQ_LOG_LEVEL: 'error',
    });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    try {
      await waitFor(
        () => /Ctrl-C stops everything/.test(output),
        START_TIMEOUT_MS,
        () => output,
      );
      const base = /base URL\s+(\S+)/.exec(output)?.[1] as string;
      expect(base).toMatch(/\/mainnet\/api$/);
      const db = database.db;
      const indexed = async () =>
        Number(
          (
            await sql<{
              v: string | null;
            }>`SELECT max(last_version)::text AS v FROM indexer_checkpoints`.execute(db)
          ).rows[0]?.v ?? -1,
        );
      await waitFor(
        async () => (await indexed()) === last,
        START_TIMEOUT_MS,
        () => output,
      );

      const count = async (table: string) =>
        Number(
          (await sql<{ n: string }>`SELECT count(*)::text AS n FROM ${sql.table(table)}`.execute(db)).rows[0]
            ?.n,
        );
      expect(await count('failed_transactions')).toBe(0);
      expect(await count('token_activities')).toBeGreaterThan(0);
      expect(await count('marketplace_activities')).toBeGreaterThan(0);

      // The API serves it, saying it is caught up with the recorded chain's last version.
      const res = await fetch(`${base}/rankings/recent-added`, { headers: { 'x-api-key': apiKey } });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-mdq-indexed-version')).toBe(String(last));
    } finally {
      child.kill('SIGINT');
    }
    expect(await exited, output).toBe(0);
  });
});
