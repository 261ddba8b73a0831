import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, type TestDatabase } from '@mdq/db/testing';
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { parse } from 'yaml';
import { ROOT, rootPackage } from './infra-files';
import { childrenOf, commandLine, getAsClient, ReleaseProcess } from './release-process';

/*
 * The "done when": `pnpm release` builds the bundle and the release folder once; from that
 * folder alone (outside the checkout, so no workspace node_modules, no dev dependency, no tsx) every
 * role runs as the image runs it — node the process itself, parent of nothing — and stops cleanly on
 * SIGTERM; `mdq start` serves a keyed request on its embedded defaults.
 */

const work = mkdtempSync(join(tmpdir(), 'mdq-release-'));
const release = join(work, 'release');
const MDQ = join(release, 'dist', 'mdq.js');
const prefix = `mdq-release-${randomBytes(4).toString('hex')}`;
const redisUrl = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const apiKey = `release-test-${randomBytes(8).toString('hex')}`;
let database: TestDatabase;
let env: Record<string, string>;
// As root, the long-running roles run as the image's user: the release folder stays root's and
// read-only to them, and MDQ_DATA_DIR is the one folder they own (what the image gives them).
const IMAGE_UID = 1000;
const asImageUser = process.getuid?.() === 0 ? IMAGE_UID : undefined;
const mdq = (args: string[], extra: Record<string, string> = {}, uid?: number) =>
  new ReleaseProcess(MDQ, args, { ...env, ...extra }, release, uid);
const run = async (args: string[], extra: Record<string, string> = {}) => {
  const process = mdq(args, extra);
  return { ...(await process.exited), output: process.output };
};

beforeAll(async () => {
  execFileSync('bash', [join(ROOT, 'scripts', 'release.sh'), release], {
    cwd: ROOT,
    stdio: 'pipe',
    timeout: 200_000,
  });
  database = await createTestDatabase({ migrate: false });
  chmodSync(work, 0o755);
  mkdirSync(join(work, 'data'));
  if (asImageUser !== undefined) chownSync(join(work, 'data'), asImageUser, asImageUser);
  env = {
    DATABASE_URL: database.url,
    REDIS_URL: redisUrl,
    MDQ_QUEUE_PREFIX: prefix,
    APTOS_NETWORK: 'local',
    MDQ_LOG_LEVEL: 'warn',
    MDQ_DATA_DIR: join(work, 'data'),
  };
});

afterAll(async () => {
  await database?.drop();
  const redis = new Redis(redisUrl);
  const keys = await redis.keys(`${prefix}:*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
  rmSync(work, { recursive: true, force: true });
});

describe('the release folder', () => {
  it('holds the bundle and production dependencies only', () => {
    expect(JSON.parse(readFileSync(join(release, 'package.json'), 'utf8'))).toMatchObject({
      name: 'mdq',
      version: rootPackage().version,
      bin: { mdq: 'dist/mdq.js' },
    });
    expect(readdirSync(join(release, 'dist')).filter((f) => f.endsWith('.ts'))).toEqual([]);
    // The migrations read the database functions' files beside the bundle (apps/cli/scripts/build.ts).
    expect(readdirSync(join(release, 'dist', 'functions')).sort()).toEqual(
      readdirSync(join(ROOT, 'packages', 'db', 'src', 'functions')).sort(),
    );
    const modules = readdirSync(join(release, 'node_modules'));
    for (const dev of ['tsx', 'vitest', 'esbuild', 'turbo', '@biomejs', 'playwright-core', 'knip', '@mdq'])
      expect(modules, dev).not.toContain(dev);
  });

  it("installs the lockfile's version of every package", () => {
    const lock = parse(readFileSync(join(ROOT, 'pnpm-lock.yaml'), 'utf8')) as {
      packages: Record<string, unknown>;
    };
    const locked = new Set(Object.keys(lock.packages));
    const top = readdirSync(join(release, 'node_modules')).filter((e) => !e.startsWith('.'));
    const names = top.flatMap((e) =>
      e.startsWith('@') ? readdirSync(join(release, 'node_modules', e)).map((s) => `${e}/${s}`) : [e],
    );
    const drift = names.flatMap((name) => {
      const manifest = join(release, 'node_modules', name, 'package.json');
      if (!existsSync(manifest)) return [];
      const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
      return locked.has(`${name}@${version}`) ? [] : [`${name}@${version}`];
    });
    expect(names.length).toBeGreaterThan(100);
    expect(drift).toEqual([]);
  });

  it('resolves and loads every package the bundle imports (native ones included) from its node_modules', () => {
    const specifiers = new Set<string>();
    for (const file of readdirSync(join(release, 'dist')).filter((f) => f.endsWith('.js'))) {
      const code = readFileSync(join(release, 'dist', file), 'utf8');
      // esbuild writes `import … from "x";` at a line's start and `import("x")`.
      const imports = [
        ...code.matchAll(/^import\s*(?:[\w$*{}\s,]+from\s*)?"([^"]+)";/gm),
        ...code.matchAll(/\bimport\("([^"]+)"\)/g),
      ];
      for (const [, specifier] of imports) {
        if (specifier && !specifier.startsWith('node:') && !specifier.startsWith('.'))
          specifiers.add(specifier);
      }
    }
    for (const expected of ['fastify', 'kysely', 'bullmq', 'sharp', 'pg'])
      expect(specifiers).toContain(expected);
    const loaded = execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        'for (const s of JSON.parse(process.argv[1])) await import(s); console.log("loaded")',
        JSON.stringify([...specifiers]),
      ],
      { cwd: join(release, 'dist'), encoding: 'utf8', env: { PATH: process.env['PATH'] ?? '' } },
    );
    expect(loaded.trim()).toBe('loaded');
  });

  it('maps the bundle back to the TypeScript sources', () => {
    const code = readFileSync(MDQ, 'utf8').split('\n');
    const line = code.findIndex((l) => l.includes('Exit 0 when the local mdq answers'));
    const script = `import { findSourceMap } from 'node:module';
      await import('./mdq.js');
      const entry = findSourceMap(new URL('./mdq.js', 'file://' + process.cwd() + '/').href).findEntry(${line}, 10);
      console.log(entry.originalSource);`;
    const source = execFileSync(
      process.execPath,
      ['--enable-source-maps', '--input-type=module', '-e', script],
      {
        cwd: join(release, 'dist'),
        encoding: 'utf8',
        env: { PATH: process.env['PATH'] ?? '' },
      },
    );
    // Named from the repository root, wherever the release folder is.
    expect(source.trim()).toBe('file:///apps/cli/src/commands/healthcheck.ts');
  });

  it('reports the version of package.json and the commit built', async () => {
    const commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
    const result = await run(['--version']);
    expect(result.code).toBe(0);
    expect(result.output.trim()).toBe(`${rootPackage().version} (commit ${commit})`);
  });
});

describe('every role from the release folder', () => {
  let devnet: ReleaseProcess;
  let fullnode: string;

  beforeAll(async () => {
    // A small chain that keeps growing (a block of 20 every 100 ms), so the indexer has batches to write.
    devnet = mdq([
      'devnet',
      '--preset',
      'tiny',
      '--port',
      '0',
      '--block-interval-ms',
      '100',
      '--live-block-size',
      '20',
    ]);
    fullnode = (await devnet.waitFor(/listening on (http:\/\/\S+\/v1)/))[1] as string;
  });
  afterAll(async () => {
    await devnet?.terminate();
  });

  it('migrate applies every migration of packages/db', async () => {
    const result = await run(['migrate']);
    expect(result.code, result.output).toBe(0);
    const files = readdirSync(join(ROOT, 'packages/db/src/migrations')).filter((f) => f.endsWith('.ts'));
    const applied = await sql<{ n: string }>`SELECT count(*) AS n FROM kysely_migration`.execute(database.db);
    expect(Number(applied.rows[0]?.n)).toBe(files.length);
  });

  it('api, indexer and worker run as node alone and exit 0 on SIGTERM with their work settled', async () => {
    const chain = { APTOS_FULLNODE_URL: fullnode };
    const indexer = mdq(['indexer'], chain, asImageUser);
    const worker = mdq(['worker'], chain, asImageUser);
    const api = mdq(['api'], { ...chain, PORT: '0', MDQ_API_KEY: apiKey }, asImageUser);
    // A failed expectation must not leave the three running.
    onTestFinished(() => {
      for (const p of [indexer, worker, api]) if (p.child.exitCode === null) p.child.kill('SIGKILL');
    });
    const origin = (await api.waitFor(/listening on (http:\/\/[\d.]+:\d+)/))[1] as string;
    await worker.waitFor(/mdq worker running \(bullmq\)/);
    await indexer.waitFor(/caught up at version \d+/);

    for (const [role, process] of [
      ['indexer', indexer],
      ['worker', worker],
      ['api', api],
    ] as const) {
      expect(commandLine(process.pid)).toEqual([
        globalThis.process.execPath,
        '--enable-source-maps',
        MDQ,
        role,
      ]);
      expect(childrenOf(process.pid), role).toEqual([]);
      if (asImageUser !== undefined) expect(statSync(`/proc/${process.pid}`).uid).toBe(IMAGE_UID);
    }

    const health = (await (await fetch(`${origin}/health`)).json()) as { version: string; commit: string };
    expect(health.version).toBe(rootPackage().version);
    expect(health.commit).toMatch(/^[0-9a-f]{40}$/);
    const keyed = await getAsClient(`${origin}/local/api/market/total-listing-cards`, {
      'x-api-key': apiKey,
    });
    expect(keyed.status, await keyed.clone().text()).toBe(200);
    // swagger-ui's static files are read from its package folder at run time.
    expect((await fetch(`${origin}/docs/static/index.css`)).status).toBe(200);
    const port = new URL(origin).port;
    expect((await run(['healthcheck'], { PORT: port })).code).toBe(0);

    const [indexerExit, workerExit, apiExit] = await Promise.all([
      indexer.terminate(),
      worker.terminate(),
      api.terminate(),
    ]);
    expect(indexerExit, indexer.output).toEqual({ code: 0, signal: null });
    expect(workerExit, worker.output).toEqual({ code: 0, signal: null });
    expect(apiExit, api.output).toEqual({ code: 0, signal: null });

    // The indexer's last batch committed with its checkpoint: what it reports is what the database holds.
    const last = Number(/last version (\d+)/.exec(indexer.output)?.[1]);
    const checkpoints = await sql<{ v: string }>`SELECT last_version AS v FROM indexer_checkpoints`.execute(
      database.db,
    );
    expect(checkpoints.rows.map((r) => Number(r.v))).toContain(last);
    // The worker left no job half-run: nothing is active in any of its queues.
    const redis = new Redis(redisUrl);
    const active = await redis.keys(`${prefix}:*:active`);
    const lengths = await Promise.all(active.map((key) => redis.llen(key)));
    await redis.quit();
    expect(lengths.every((n) => n === 0)).toBe(true);
    // The port is closed: the same probe now fails.
    expect((await run(['healthcheck'], { PORT: port })).code).not.toBe(0);
  });

  it('backfill indexes a past range and exits', async () => {
    const result = await run(['backfill', '--from', '0', '--to', '199'], { APTOS_FULLNODE_URL: fullnode });
    expect(result.code, result.output).toBe(0);
    expect(result.output).toMatch(/last version 199\b/);
  });
});

describe('mdq start from the release folder', () => {
  it('starts its embedded Postgres and devnet and serves a keyed request', async () => {
    const dataDir = join(work, 'start-data');
    // As root, Postgres runs as another OS user: its binaries and cluster go to a folder it can reach.
    const sharedDir = mkdtempSync(join(tmpdir(), 'mdq-release-shared-'));
    chmodSync(sharedDir, 0o755);
    const start = new ReleaseProcess(
      MDQ,
      ['start'],
      {
        MDQ_DATA_DIR: dataDir,
        MDQ_SHARED_DIR: sharedDir,
        PORT: '0',
        MDQ_DEVNET_PORT: '0',
        MDQ_QUEUE_PREFIX: prefix,
        MDQ_LOG_LEVEL: 'error',
      },
      release,
    );
    try {
      await start.waitFor(/Ctrl-C stops everything/, 180_000);
      const base = (/base URL\s+(\S+)/.exec(start.output)?.[1] ?? '') as string;
      const key = readFileSync(join(dataDir, 'demo-api-key'), 'utf8').trim();
      const keyed = await getAsClient(`${base}/market/total-listing-cards`, { 'x-api-key': key });
      expect(keyed.status, `${await keyed.clone().text()}\n${start.output}`).toBe(200);
      expect(await start.terminate()).toEqual({ code: 0, signal: null });
    } finally {
      if (start.child.exitCode === null) start.child.kill('SIGKILL');
      rmSync(sharedDir, { recursive: true, force: true });
    }
    expect(existsSync(join(dataDir, 'demo-api-key'))).toBe(true);
  });
});
