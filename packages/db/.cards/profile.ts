import { type CompiledQuery, Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { type Db, listingCardParts, listingCards, tokenBalances, totalListingCards } from '../src/index';

const url = process.argv[2]!;
const pool = new pg.Pool({ connectionString: url, max: 4 });
const captured: { sql: string; parameters: readonly unknown[] }[] = [];
const db = new Kysely<any>({
  dialect: new PostgresDialect({ pool }),
  log(e) {
    if (e.level === 'query') captured.push({ sql: e.query.sql, parameters: e.query.parameters });
  },
}) as unknown as Db;
const c = new pg.Client({ connectionString: url });
await c.connect();
const one = async (label: string, run: () => Promise<unknown>) => {
  if (process.env.ONLY && !label.includes(process.env.ONLY)) return;
  captured.length = 0;
  const t0 = performance.now();
  await run();
  const ms = performance.now() - t0;
  const qs = [...captured];
  console.log(`\n##### ${label}: ${ms.toFixed(1)} ms, ${qs.length} statements`);
  for (const q of qs) {
    const r = await c.query(
      `EXPLAIN (ANALYZE, BUFFERS${process.env.VERBOSE ? '' : ', COSTS OFF'}) ${q.sql}`,
      q.parameters as unknown[],
    );
    const lines = r.rows.map((x) => x['QUERY PLAN'] as string);
    const tail = lines.filter((l) => /Execution Time|Planning Time/.test(l)).join(' | ');
    console.log(`-- ${q.sql.replace(/\s+/g, ' ').slice(0, 160)}\n   ${tail}`);
    if (process.env.PLANS) console.log(lines.join('\n'));
  }
};
const col = (
  await c.query(
    `SELECT collection_name, creator_address FROM collections c WHERE EXISTS (SELECT 1 FROM listings l WHERE l.collection_id=c.collection_id AND status='active') ORDER BY random() LIMIT 1`,
  )
).rows[0];
const page = (n: number) => ({ page: n, limit: 20, version: undefined });
const which = process.argv.slice(3);
const want = (s: string) => which.length === 0 || which.includes(s);
if (want('cards')) {
  const filters: [string, any][] = [
    ['none', {}],
    ['collection', { collectionName: col.collection_name, creatorAddress: col.creator_address }],
    ['minPrice 1e7', { minPrice: '10000000' }],
    ['minPrice 1e8', { minPrice: '100000000' }],
    ['search a', { search: 'a' }],
    ['search wiz', { search: 'wiz' }],
    ['search Koalas', { search: 'Koalas' }],
    ['search samrai', { search: 'samrai' }],
  ];
  for (const [name, f] of filters) {
    for (const p of [1, 5])
      await one(`listing-cards ${name} p${p}`, () => listingCards(db, f, false, page(p)));
  }
  for (const p of [1, 5]) await one(`listing-cards popular p${p}`, () => listingCards(db, {}, true, page(p)));
  for (const [name, f] of filters) await one(`total ${name}`, () => totalListingCards(db, f));
}
if (want('balances')) {
  const ws = (
    await c.query(
      `(SELECT owner_address a, count(*) n FROM token_ownerships GROUP BY 1 ORDER BY 2 DESC LIMIT 3) UNION ALL (SELECT owner_address, 0 FROM token_ownerships ORDER BY random() LIMIT 2)`,
    )
  ).rows;
  for (const w of ws)
    for (const s of [false, true])
      for (const p of [1, 5])
        await one(`balances ${w.a.slice(0, 10)} (${w.n}) service=${s} p${p}`, () =>
          tokenBalances(db, { address: w.a, serviceInfo: s }, { page: p, limit: 100, version: undefined }),
        );
}
if (want('card')) {
  const ts = (
    await c.query(
      `(SELECT token_data_id FROM listings WHERE status='active' ORDER BY random() LIMIT 2) UNION ALL (SELECT token_data_id FROM tokens ORDER BY random() LIMIT 2)`,
    )
  ).rows;
  for (const t of ts)
    await one(`listing-card ${t.token_data_id.slice(0, 12)}`, () =>
      listingCardParts(db, t.token_data_id, new Date()),
    );
}
await c.end();
await db.destroy();
