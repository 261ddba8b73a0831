import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import utils from 'pg/lib/utils.js';
import { type Db, listingCardParts } from '../src/index';

const url = process.argv[2]!;
const pool = new pg.Pool({ connectionString: url, max: 1 });
let q: { sql: string; parameters: readonly unknown[] } | undefined;
const db = new Kysely<any>({
  dialect: new PostgresDialect({ pool }),
  log(e) {
    q = e.query;
  },
}) as unknown as Db;
const c = new pg.Client({ connectionString: url });
await c.connect();
const ts = (
  await c.query(
    `(SELECT token_data_id FROM listings WHERE status='active' ORDER BY random() LIMIT 3) UNION ALL (SELECT token_data_id FROM tokens ORDER BY random() LIMIT 3)`,
  )
).rows;
await listingCardParts(db, ts[0].token_data_id, new Date());
const types = q!.parameters.map(() => 'unknown');
await c.query(`SET plan_cache_mode = force_generic_plan`);
await c.query(`PREPARE lc AS ${q!.sql}`);
for (const t of ts) {
  await listingCardParts(db, t.token_data_id, new Date());
  const vals = q!.parameters.map((p) => c.escapeLiteral(String((utils as any).prepareValue(p)))).join(',');
  const g = (await c.query(`EXPLAIN (ANALYZE, BUFFERS) EXECUTE lc(${vals})`)).rows.map(
    (r) => r['QUERY PLAN'],
  );
  const cu = (
    await c.query({ text: `EXPLAIN (ANALYZE, BUFFERS) ${q!.sql}`, values: q!.parameters as unknown[] })
  ).rows.map((r) => r['QUERY PLAN']);
  const pick = (ls: string[]) =>
    ls.filter((l) => /Planning Time|Execution Time|^ {2}Buffers/.test(l) || /^Planning:/.test(l)).join(' | ');
  console.log('generic:', pick(g), '\ncustom: ', pick(cu));
  if (process.env.PLANS) console.log(g.join('\n'));
}
await c.end();
await db.destroy();
