import { mkdtemp, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from '@mdq/db';
import { createTestDatabase, type TestDatabase } from '@mdq/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli';

const ROWS = 3000;

/** Data lines of an export file (without its trailer), and the trailer. */
function split(text: string): { data: string[]; trailer: string } {
  const lines = text.trimEnd().split('\n');
  const trailer = lines.pop() ?? '';
  return { data: lines, trailer };
}

describe('mdq export', () => {
  let test: TestDatabase;
  let dir: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    test = await createTestDatabase();
    // Two events per version, so that a cut between them must resume on the event index.
    await sql`
      INSERT INTO marketplace_activities (transaction_version, event_index, kind, marketplace, contract_address,
        raw_event_type, collection_id, seller, buyer, price, token_amount, transaction_timestamp)
      SELECT g / 2 + 1, g % 2, 'fill_listing', 'mdq', '0x1', 'e', '0x' || lpad(to_hex(g % 3), 64, '0'),
             '0x' || lpad(to_hex(g % 11), 64, '0'), '0x' || lpad(to_hex(g % 13 + 100), 64, '0'),
             g * 10, 1, timestamptz '2026-01-01' + g * interval '1 minute'
        FROM generate_series(0, ${ROWS - 1}) g`.execute(test.db);
    dir = await mkdtemp(join(tmpdir(), 'mdq-export-'));
    env = { DATABASE_URL: test.url };
  });
  afterAll(async () => {
    await test?.drop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('writes every row with plain progress lines when not on a terminal', async () => {
    const out = join(dir, 'all.ndjson');
    const run = await runCli(['export', 'sales', '--out', out], env);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(`exporting ${ROWS} rows`);
    expect(run.stderr).toContain(`exported ${ROWS} sales rows to ${out}`);
    const { data, trailer } = split(await readFile(out, 'utf8'));
    expect(data).toHaveLength(ROWS);
    expect(JSON.parse(trailer)).toEqual({
      $export: { dataset: 'sales', rows: ROWS, complete: true, next: null },
    });
    const keys = data.map((l) => JSON.parse(l) as { version: number; eventIndex: number });
    expect(keys.map((k) => k.version * 2 + k.eventIndex)).toEqual(
      Array.from({ length: ROWS }, (_, g) => g + 2),
    );
  });

  it('continues with --resume after a limit and after a torn file, without a gap or a duplicate', async () => {
    const whole = split(await readFile(join(dir, 'all.ndjson'), 'utf8')).data;

    const out = join(dir, 'parts.ndjson');
    const first = await runCli(['export', 'sales', '--out', out, '--limit', '1001'], env);
    expect(first.stderr).toContain('more remain: run again with --resume');
    for (let i = 0; i < 3; i++) {
      const next = await runCli(['export', 'sales', '--out', out, '--limit', '1001', '--resume'], env);
      expect(next.code, next.stderr).toBe(0);
    }
    expect(split(await readFile(out, 'utf8')).data).toEqual(whole);
    const done = await runCli(['export', 'sales', '--out', out, '--resume'], env);
    expect(done.stderr).toContain('already holds a complete export');

    // A download torn in the middle of a row (between the two events of a version).
    const torn = join(dir, 'torn.ndjson');
    const cut = `${whole.slice(0, 1501).join('\n')}\n${whole[1501]?.slice(0, 20)}`;
    await writeFile(torn, cut);
    const resumed = await runCli(['export', 'sales', '--out', torn, '--resume'], env);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(split(await readFile(torn, 'utf8')).data).toEqual(whole);
  });

  it('resumes a CSV export from its trailer with one header, filters by collection and wallet', async () => {
    const out = join(dir, 'c.csv');
    const filters = ['--collection-id', '0x1', '--wallet', '0x5'];
    const full = join(dir, 'full.csv');
    expect((await runCli(['export', 'sales', '--out', full, '--format', 'csv', ...filters], env)).code).toBe(
      0,
    );
    await runCli(['export', 'sales', '--out', out, '--format', 'csv', '--limit', '7', ...filters], env);
    const resumed = await runCli(
      ['export', 'sales', '--out', out, '--format', 'csv', '--resume', ...filters],
      env,
    );
    expect(resumed.code, resumed.stderr).toBe(0);
    const expected = split(await readFile(full, 'utf8')).data;
    expect(split(await readFile(out, 'utf8')).data).toEqual(expected);
    const wallet = `0x${'5'.padStart(64, '0')}`;
    const { rows } = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM marketplace_activities
       WHERE collection_id = ${`0x${'1'.padStart(64, '0')}`} AND (seller = ${wallet} OR buyer = ${wallet})`.execute(
      test.db,
    );
    expect(expected.length - 1).toBe(rows[0]?.n);
    expect(expected[0]?.startsWith('version,eventIndex,kind,')).toBe(true);

    // A CSV torn mid-stream has no trailer to go on from: refused, not guessed.
    await truncate(out, 600);
    const refused = await runCli(
      ['export', 'sales', '--out', out, '--format', 'csv', '--resume', ...filters],
      env,
    );
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/cannot be resumed/);
  });

  it('names a bad dataset or flag', async () => {
    const bad = await runCli(['export', 'bids', '--out', join(dir, 'x')], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/unknown dataset "bids"/);
    const flag = await runCli(['export', 'sales', '--out', join(dir, 'x'), '--wallet', 'nope'], env);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toMatch(/--wallet/);
  });
});
