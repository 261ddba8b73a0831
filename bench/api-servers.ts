/**
 * The servers the API benchmark loads, each started in its own process (so the load generator
 * does not share their event loop): `select1` (node:http + pg answering `SELECT 1`, the cost of
 * one database round trip; `/?bytes=N` answers it with an N-byte body), `hello` (Fastify hello
 * world, the cost of the framework) and `api` (mdq's API as `mdq api` starts it). Prints `listening on <url>` when ready.
 *
 * Usage: tsx api-servers.ts <select1|hello|api> <database url> [pool size]
 */
import { createServer } from 'node:http';
import { startApiServers } from '@mdq/api';
import { loadConfig } from '@mdq/config';
import { createPool } from '@mdq/db';
import Fastify from 'fastify';

const [mode, databaseUrl, poolArg] = process.argv.slice(2);
// The API's own default pool (MDQ_API_POOL_SIZE, else its default for this machine's cores) unless
// one is given: the SELECT 1 baseline and the API are then measured on the same pool.
const poolSize = poolArg === undefined ? loadConfig().apiPoolSize : Number(poolArg);
// A plain exit on SIGTERM, so that `--cpu-prof` writes its profile.
process.on('SIGTERM', () => process.exit(0));
if (!databaseUrl) throw new Error('usage: api-servers.ts <select1|hello|api> <database url> [pool size]');

if (mode === 'select1') {
  const pool = createPool(databaseUrl, { max: poolSize });
  // `/?bytes=N`: the same round trip, answered with a JSON body of N bytes built once. A page of
  // N bytes costs at least this much whatever its query: the bench's floor for large answers.
  const bodies = new Map<number, string>();
  const padded = (n: number): string => {
    let body = bodies.get(n);
    if (body === undefined) {
      body = JSON.stringify({ data: { one: 1 }, pad: 'x'.repeat(Math.max(0, n - 30)) });
      bodies.set(n, body);
    }
    return body;
  };
  const server = createServer((req, res) => {
    const bytes = Number(new URL(req.url ?? '/', 'http://x').searchParams.get('bytes') ?? 0);
    pool.query('SELECT 1 AS one').then(
      (result) => {
        res.setHeader('content-type', 'application/json');
        res.end(bytes > 0 ? padded(bytes) : JSON.stringify({ data: result.rows[0] }));
      },
      () => {
        res.statusCode = 503;
        res.end();
      },
    );
  });
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    if (address && typeof address === 'object') console.log(`listening on http://127.0.0.1:${address.port}`);
  });
} else if (mode === 'hello') {
  const app = Fastify();
  app.get('/', async () => ({ hello: 'world' }));
  console.log(`listening on ${await app.listen({ host: '127.0.0.1', port: 0 })}`);
} else if (mode === 'api') {
  // MDQ_API_WORKERS, MDQ_RATE_LIMIT and REDIS_URL come from the environment the bench sets.
  const config = loadConfig({
    ...process.env,
    DATABASE_URL: databaseUrl,
    HOST: '127.0.0.1',
    PORT: '0',
    MDQ_LOG_LEVEL: 'silent',
    MDQ_API_POOL_SIZE: String(poolSize),
  });
  const api = await startApiServers(config, databaseUrl, { redisUrl: process.env['REDIS_URL'] ?? null });
  if (api) console.log(`listening on ${api.url}`);
} else {
  throw new Error(`unknown mode ${mode}`);
}
