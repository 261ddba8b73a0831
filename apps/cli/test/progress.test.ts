import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createTestDatabase, type TestDatabase } from '@mdq/db/testing';
import { type DevnetServer, startDevnetServer } from '@mdq/devnet';
import { createRedis } from '@mdq/jobs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIN, runCli } from './run-cli';

/*
 * Progress of `mdq backfill` as a person sees it: plain lines when the output is a pipe or a log,
 * a bar with versions/s and ETA on a terminal (a real pty, through util-linux `script`).
 */
const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';

describe('backfill progress', () => {
  const prefix = `mdq-progress-${randomBytes(4).toString('hex')}`;
  let devnet: DevnetServer;
  let ledger: number;
  const dbs: TestDatabase[] = [];
  const env = async () => {
    const test = await createTestDatabase();
    dbs.push(test);
    return {
      DATABASE_URL: test.url,
      APTOS_FULLNODE_URL: devnet.url,
      MDQ_INDEXER_BATCH_SIZE: '100',
      MDQ_LOG_LEVEL: 'error',
      REDIS_URL: REDIS_URL,
      MDQ_QUEUE_PREFIX: prefix,
    };
  };

  beforeAll(async () => {
    devnet = await startDevnetServer({ port: 0, seed: 4, preset: 'tiny', blockIntervalMs: 0 });
    ledger = Number(((await (await fetch(devnet.url)).json()) as { ledger_version: string }).ledger_version);
  });
  afterAll(async () => {
    await devnet?.close();
    await Promise.all(dbs.map((d) => d.drop()));
    const redis = createRedis(REDIS_URL);
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  it('prints plain progress lines without a terminal, ending at the target', async () => {
    const result = await runCli(['backfill', '--from', '0'], await env(), 120_000);
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stderr.split('\n').filter((l) => l.startsWith('backfill: version'));
    expect(lines.at(-1)).toMatch(
      new RegExp(`^backfill: version ${ledger} of ${ledger} \\(100\\.0%\\), \\d+ versions/s, ETA 0 s$`),
    );
    expect(result.stdout).toContain(`last version ${ledger}`);
  });

  it('draws a bar with rate and ETA on a terminal', async () => {
    const vars = await env();
    const command = [
      ...Object.entries({ ...vars, PATH: process.env['PATH'] ?? '' }).map(([k, v]) => `${k}='${v}'`),
      `'${process.execPath}'`,
      '--import tsx',
      `'${MAIN}'`,
      'backfill --from 0',
    ].join(' ');
    const output = await new Promise<string>((resolve, reject) => {
      execFile(
        'script',
        ['-qec', `env ${command}`, '/dev/null'],
        { cwd: new URL('..', import.meta.url).pathname, timeout: 120_000 },
        (error, stdout) => (error ? reject(new Error(`${error.message}\n${stdout}`)) : resolve(stdout)),
      );
    });
    expect(output).toMatch(/backfill \[[█░]+\] 100% \| (\d+)\/\1 \| [\d,]+ versions\/s \| ETA 0s/);
    expect(output).toContain(`last version ${ledger}`);
  });
});
