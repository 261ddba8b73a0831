import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRedis } from '@mdq/jobs';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnCli } from './run-cli';
import { isAlive, waitFor } from './wait-for';

/*
 * The first of the README's two commands, as a newcomer runs it: no DATABASE_URL, no fullnode URL.
 * It must start the embedded Postgres and the devnet, serve /health and a keyed request on the
 * local network prefix with the printed key, and stop everything (Postgres included) on Ctrl-C.
 */
/*
 * A first start initialises a cluster and compiles every module: seconds on a quiet machine, minutes
 * on a 2-core CI runner busy with every other suite. The limits only bound a hung start.
 */
const START_TIMEOUT_MS = 180_000;

describe('mdq start on the embedded default', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'mdq-start-'));
  // As root the private data folder is out of the postgres user's reach: the cluster goes here.
  const sharedDir = mkdtempSync(join(tmpdir(), 'mdq-start-shared-'));
  chmodSync(sharedDir, 0o755);
  const prefix = `mdq-start-${randomBytes(4).toString('hex')}`;
  afterAll(async () => {
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(sharedDir, { recursive: true, force: true });
    const redis = createRedis('redis://127.0.0.1:6379');
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  it('serves health and keyed requests, then stops cleanly on SIGINT', {
    timeout: START_TIMEOUT_MS + 60_000,
  }, async () => {
    const child = spawnCli(['start'], {
      MDQ_DATA_DIR: dataDir,
      MDQ_SHARED_DIR: sharedDir,
      PORT: '0',
      MDQ_DEVNET_PORT: '0',
      MDQ_QUEUE_PREFIX: prefix,
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

    await waitFor(
      () => /Ctrl-C stops everything/.test(output),
      START_TIMEOUT_MS,
      () => output,
    );
    const base = /base URL\s+(\S+)/.exec(output)?.[1] as string;
    const key = /API key\s+(\S+)/.exec(output)?.[1] as string;
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/local\/api$/);
    expect(key).toBe(readFileSync(join(dataDir, 'demo-api-key'), 'utf8').trim());
    const origin = new URL(base).origin;

    expect(await (await fetch(`${origin}/health`)).json()).toMatchObject({ status: 'ok', network: 'local' });
    const unauthorized = await fetch(`${base}/rankings/recent-added`);
    expect(unauthorized.status).toBe(401);
    // The devnet chain is being indexed: listing cards appear once the first batches commit.
    await waitFor(
      async () => {
        const res = await fetch(`${base}/market/listing-cards?limit=1`, { headers: { 'x-api-key': key } });
        return res.status === 200 && ((await res.json()) as { data: unknown[] }).data.length === 1;
      },
      60_000,
      () => output,
    );
    const keyed = await fetch(`${origin}/local/market/total-listing-cards`, {
      headers: { 'x-api-key': key },
    });
    expect(keyed.status).toBe(200);

    // A token's thumbnail answers an image: the devnet serves its document and picture at its own
    // address, which mdq start trusts (the SSRF guard's one allowance).
    const card = (
      (await (
        await fetch(`${base}/market/listing-cards?limit=1`, { headers: { 'x-api-key': key } })
      ).json()) as { data: { thumbnailUrl: string }[] }
    ).data[0];
    const thumbnail = await fetch(card?.thumbnailUrl as string);
    expect([thumbnail.status, thumbnail.headers.get('content-type')]).toEqual([200, 'image/webp']);
    expect((await thumbnail.arrayBuffer()).byteLength).toBeGreaterThan(0);

    const state = JSON.parse(readFileSync(join(dataDir, 'postgres.json'), 'utf8')) as {
      pid: number;
      clusterDir: string;
    };
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    // Nothing was closed under work still running (Kysely: "driver has already been destroyed").
    expect(output.slice(output.indexOf('Ctrl-C stops everything'))).not.toMatch(/destroyed/i);
    expect(isAlive(state.pid)).toBe(false);
    expect(existsSync(join(state.clusterDir, 'postmaster.pid'))).toBe(false);
    // Every line is mdq's: the Aptos SDK's own notes stay out of the banner.
    expect(output).not.toMatch(/CUSTOM network/);
  });

  it('stops everything in order when its output pipe has closed first (`mdq start | tee`, Ctrl-C)', {
    timeout: START_TIMEOUT_MS + 60_000,
  }, async () => {
    // The same folders: this start joins the cluster the first one left.
    const child = spawnCli(['start'], {
      MDQ_DATA_DIR: dataDir,
      MDQ_SHARED_DIR: sharedDir,
      PORT: '0',
      MDQ_DEVNET_PORT: '0',
      MDQ_QUEUE_PREFIX: prefix,
    });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    await waitFor(
      () => /Ctrl-C stops everything/.test(output),
      START_TIMEOUT_MS,
      () => output,
    );
    const state = JSON.parse(readFileSync(join(dataDir, 'postgres.json'), 'utf8')) as {
      pid: number;
      clusterDir: string;
    };
    expect(isAlive(state.pid)).toBe(true);
    // tee goes first on Ctrl-C: every write of mdq's from here on meets a pipe with no reader.
    child.stdout?.destroy();
    child.stderr?.destroy();
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(isAlive(state.pid)).toBe(false);
    expect(existsSync(join(state.clusterDir, 'postmaster.pid'))).toBe(false);
  });
});
