// Profiling helper (not committed): EXPLAIN (ANALYZE, BUFFERS) and timing of the search statements.
import { CompiledQuery } from 'kysely';
import { createDb, searchMarket, raritiesOfCollections, type Db } from '../src/index';
const url = process.argv[2]!;
const mode = process.argv[3] ?? 'time';
const texts = (process.argv[4] ?? 'a,z,k,ol,wizard,Koa,Koalas,Koals,Velvet K,Velvet Koalas #255,velvet koalaz,#1').split(',');
const limit = Number(process.env.LIMIT ?? 10);
const base = createDb(url, { max: 2 });
const captured: { sql: string; parameters: readonly unknown[] }[] = [];
const executor = base.getExecutor();
const db = base.withPlugin({
  transformQuery(args) { captured.push(executor.compileQuery(args.node, args.queryId)); return args.node; },
  transformResult: async (args) => args.result,
}) as Db;
for (const text of texts) {
  if (mode === 'time') {
    const times: number[] = [];
    let out: unknown;
    for (let i = 0; i < 3; i++) { const t = performance.now(); out = await searchMarket(db, text, limit); times.push(performance.now() - t); }
    times.sort((a, b) => a - b);
    const o = out as { tokens: { tokenName: string }[]; collections: unknown[] };
    console.log(JSON.stringify(text).padEnd(24), times.map((x) => x.toFixed(1)).join(' / '), 'ms', o.tokens.length, o.tokens.slice(0, 3).map((t) => t.tokenName).join(' | '));
  } else {
    captured.length = 0;
    await searchMarket(db, text, limit);
    for (const s of captured) {
      const r = await base.executeQuery<{ 'QUERY PLAN': string }>(CompiledQuery.raw(`EXPLAIN (ANALYZE, BUFFERS) ${s.sql}`, [...s.parameters]));
      console.log(`==== ${JSON.stringify(text)}`);
      console.log(r.rows.map((x) => x['QUERY PLAN']).join('\n'));
    }
  }
}
await base.destroy();
