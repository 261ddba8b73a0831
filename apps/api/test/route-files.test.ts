import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { readdirSync } from 'node:fs';
import { relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDb } from '@mdq/db';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app';

/*
 * Every route is in the file named for its URL group (the rule: README, "Route files"). Each
 * route's file is the one that called `app.get` / `app.post`, read from the stack when Fastify
 * reports the route (its `onRoute` hook, added as the instance is created).
 */

const SRC = fileURLToPath(new URL('../src/', import.meta.url));
const ROUTES = fileURLToPath(new URL('../src/routes/', import.meta.url));
const NETWORK = 'local';
/** Route files' neighbours that register nothing. */
const NOT_GROUPS = new Set(['index', 'deps']);
/** Routes a plugin serves beside what it does for every route (their URL is the plugin's name). */
const PLUGIN_ROUTES: Record<string, string> = {
  '/metrics': 'plugins/metrics.ts',
  '/openapi.json': 'plugins/docs.ts',
};
/** Routes registered by a library (no frame of ours on the stack): the Swagger UI's pages, CORS preflights. */
const byLibrary = (url: string) => url === '*' || url === '/docs' || url.startsWith('/docs/');

interface Registered {
  method: string;
  url: string;
  /** Path under src/ of the file that registered the route; undefined when none of ours did. */
  file: string | undefined;
}

/** The first frame of the current stack in src/: the file whose call registered the route. */
function registeringFile(): string | undefined {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 100;
  const stack = new Error().stack ?? '';
  Error.stackTraceLimit = limit;
  for (const line of stack.split('\n')) {
    const path = /\(?(?:file:\/\/)?(\/[^()]+\.ts):\d+:\d+\)?$/.exec(line.trim())?.[1];
    if (path?.startsWith(SRC)) return relative(SRC, path).split(sep).join('/');
  }
  return undefined;
}

/** `/market/user-bids` → `['/market', '/user', '-bids']`: the words with the separator before each. */
const words = (path: string): string[] => path.split(/(?=[-/])/).filter((w) => w !== '');

/** How many words of the URL a group names (0: it does not begin the URL). */
function wordsNamed(group: string, url: string): number {
  const g = words(group);
  const u = words(url);
  if (g.length > u.length) return 0;
  const same = (a: string, b: string) => a === b || a === `${b}s` || b === `${a}s`;
  return g.every((w, i) => same(w, u[i] as string)) ? g.length : 0;
}

/** Every route file's URL group: `market/user.ts` → `/market/user`. */
function routeGroups(): Map<string, string> {
  const groups = new Map<string, string>();
  for (const entry of readdirSync(ROUTES, { recursive: true, encoding: 'utf8' })) {
    if (!entry.endsWith('.ts')) continue;
    const name = entry.slice(0, -'.ts'.length).split(sep).join('/');
    if (!NOT_GROUPS.has(name)) groups.set(`routes/${entry.split(sep).join('/')}`, `/${name}`);
  }
  return groups;
}

/** The URL without the area prefix (`/{network}/api` or `/{network}`). */
function areaUrl(url: string): string {
  for (const prefix of [`/${NETWORK}/api`, `/${NETWORK}`]) {
    if (url.startsWith(`${prefix}/`)) return url.slice(prefix.length);
  }
  return url;
}

describe('route files', () => {
  const registered: Registered[] = [];
  let app: FastifyInstance;
  // Building the app registers routes and schemas only: the pool never connects.
  const db = createDb('postgres://unused@127.0.0.1:1/unused', { max: 1 });

  beforeAll(async () => {
    const watch = (message: unknown) => {
      (message as { fastify: FastifyInstance }).fastify.addHook('onRoute', (route: RouteOptions) => {
        for (const method of [route.method].flat()) {
          registered.push({ method, url: route.url, file: registeringFile() });
        }
      });
    };
    subscribe('fastify.initialization', watch);
    try {
      app = await buildApp({
        db,
        network: NETWORK,
        media: { thumbnail: () => Promise.reject(new Error('unused')) },
      });
    } finally {
      unsubscribe('fastify.initialization', watch);
    }
  });

  afterAll(async () => {
    await app?.close();
    await db.destroy();
  });

  it('sees the routes of every route file', () => {
    const files = new Set(registered.map((r) => r.file));
    for (const file of routeGroups().keys()) {
      if (!file.endsWith('-examples.ts')) expect(files, file).toContain(file);
    }
  });

  it('finds every route in the file named for its URL group', () => {
    const groups = routeGroups();
    const misplaced: string[] = [];
    for (const { method, url, file } of registered) {
      const path = areaUrl(url);
      const where = `${method} ${url} (registered in ${file ?? 'a library'})`;
      if (file === undefined) {
        if (!byLibrary(path)) misplaced.push(`${where}: no file of src/ registered it`);
        continue;
      }
      if (!file.startsWith('routes/')) {
        if (PLUGIN_ROUTES[path] !== file) misplaced.push(`${where}: a route goes in src/routes`);
        continue;
      }
      const named = [...groups]
        .map(([f, group]) => ({ f, n: wordsNamed(group, path) }))
        .filter((g) => g.n > 0);
      const longest = Math.max(0, ...named.map((g) => g.n));
      const best = named.filter((g) => g.n === longest).map((g) => g.f);
      if (best.length !== 1 || best[0] !== file) {
        misplaced.push(
          `${where}: belongs in ${best.length === 0 ? `routes${path.split(/[-/]/, 2).join('/')}.ts` : best.join(' or ')}`,
        );
      }
    }
    expect(misplaced).toEqual([]);
  });

  it('tells a misplaced route from a placed one', () => {
    const groups = [...routeGroups().values()];
    const owner = (url: string) => {
      const longest = Math.max(...groups.map((g) => wordsNamed(g, url)));
      return groups.filter((g) => wordsNamed(g, url) === longest);
    };
    expect(owner('/market/user-bids')).toEqual(['/market/user']);
    expect(owner('/market/listing-cards')).toEqual(['/market']);
    expect(owner('/token-balances')).toEqual(['/tokens']);
    expect(owner('/user/inventory-history-data')).toEqual(['/user']);
    expect(wordsNamed('/lootbox', '/rarities-by-lootbox')).toBe(0);
    expect(wordsNamed('/market', '/marketplace')).toBe(0);
  });
});
