import { createTestDatabase, stateFingerprint, type TestDatabase } from '@mdq/db/testing';
import { type DevnetServer, startDevnetServer } from '@mdq/devnet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFaultProxy } from '../src/fault-proxy';
import { printFigures } from '../src/figures';
import { spawnMdq } from '../src/processes';

/*
 * The real `mdq indexer` process reads a devnet through a proxy that gaps, truncates, throttles,
 * fails, drops and delays transaction pages. The database must end identical to a clean run's
 * (row counts and order-independent checksums of every chain-state table); a source that insists on
 * a gap must stop the run with an error naming the missing versions.
 */
describe('a faulty fullnode in front of the indexer', () => {
  let devnet: DevnetServer;
  const databases: TestDatabase[] = [];
  const database = async () => {
    const test = await createTestDatabase();
    databases.push(test);
    return test;
  };
  const indexer = (url: string, fullnode: string) =>
    spawnMdq('indexer', ['indexer', '--until-caught-up', '--batch-size', '200'], {
      DATABASE_URL: url,
      APTOS_NETWORK: 'local',
      APTOS_FULLNODE_URL: fullnode,
    });

  beforeAll(async () => {
    devnet = await startDevnetServer({ port: 0, seed: 7, transactionsCount: 3_000, blockIntervalMs: 0 });
  });
  afterAll(async () => {
    for (const test of databases) await test.drop();
    await devnet?.close();
  });

  it('ends with the database of a clean run', async () => {
    const [clean, faulted] = await Promise.all([database(), database()]);
    const proxy = await startFaultProxy({ target: devnet.url, rate: 0.35, seed: 13 });
    try {
      const cleanRun = indexer(clean.url, devnet.url);
      const faultedRun = indexer(faulted.url, proxy.url);
      const [cleanCode, faultedCode] = await Promise.all([cleanRun.exited, faultedRun.exited]);
      expect(cleanCode, cleanRun.lines.join('\n')).toBe(0);
      expect(faultedCode, faultedRun.lines.slice(-20).join('\n')).toBe(0);
      const [expected, actual] = await Promise.all([
        stateFingerprint(clean.db),
        stateFingerprint(faulted.db),
      ]);
      const injected = Object.values(proxy.injected).reduce((a, b) => a + b, 0);
      await printFigures('source', {
        faultsInjected: proxy.injected,
        tablesCompared: Object.keys(expected).length,
        tablesDiffering: Object.keys(expected).filter((t) => expected[t] !== actual[t]),
        rows: Object.values(expected).reduce((n, v) => n + Number(v.split(':')[0]), 0),
        indexerLogLines: faultedRun.lines.length,
      });
      expect(injected).toBeGreaterThan(5);
      expect(proxy.injected.gap).toBeGreaterThan(0);
      expect(actual).toEqual(expected);
    } finally {
      await proxy.close();
    }
  });

  it('stops with an error naming the gap when the source insists on it', async () => {
    const test = await database();
    const proxy = await startFaultProxy({
      target: devnet.url,
      rate: 0,
      seed: 1,
      hole: { from: 250, to: 259 },
    });
    try {
      const run = indexer(test.url, proxy.url);
      const code = await run.exited;
      const output = run.lines.join('\n');
      await printFigures('source-gap', { exitCode: code, error: run.lines.find((l) => l.includes('gap')) });
      expect(code).not.toBe(0);
      expect(output).toContain('expected version 250, got 260 (versions 250..259 missing)');
    } finally {
      await proxy.close();
    }
  });
});
