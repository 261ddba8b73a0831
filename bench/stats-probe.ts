import { closeDb, createDb, onOneConnection, sql } from '@mdq/db';
import { collectionStats } from '@mdq/db/read';
const db = createDb('postgres://postgres@127.0.0.1:5432/mdq_explain_1', { max: 2 });
const ids = process.argv.slice(2);
const { rows } = await sql<{ now: Date }>`SELECT max(transaction_timestamp) AS now FROM marketplace_activities`.execute(db);
const now = rows[0]!.now;
for (let round = 0; round < 6; round++) {
  for (const id of ids) for (const w of ['24h', 'all'] as const) {
    const t0 = performance.now();
    await onOneConnection(db, (c) => collectionStats(c, id, w, now, false));
    if (round === 5) console.log(id.slice(0, 8), w, (performance.now() - t0).toFixed(1), 'ms');
  }
}
await closeDb(db);
