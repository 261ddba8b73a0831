import { sql } from '@mdq/db';
import { WASH_RULES } from '@mdq/db/ingest';
import type { SaleFact } from '@mdq/devnet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIndexedDatabase, type IndexedDatabase } from '../src/testing';

/*
 * Wash-trade detection measured against the devnet's labels: the simulator runs scripted wash
 * campaigns (self trades, seller-funded buys, round trips, churned tokens) among an ordinary market
 * and labels their sales in its facts; the indexer sees only the chain. Small batches make most rule
 * windows cross batch boundaries, so flags earned by later sales must reach earlier ones.
 */
describe('wash-trade flags on an indexed devnet chain', () => {
  let indexed: IndexedDatabase;
  let flagsByVersion: Map<number, string[]>;
  let sales: SaleFact[];

  beforeAll(async () => {
    indexed = await createIndexedDatabase({ seed: 3, preset: 'small', batchSize: 50 });
    sales = indexed.facts.sales;
    const { rows } = await sql<{ v: string; flags: string[] }>`
      SELECT transaction_version::text AS v, wash_flags AS flags FROM marketplace_activities
       WHERE kind IN ('fill_listing', 'fill_token_offer', 'fill_collection_offer')`.execute(indexed.db);
    flagsByVersion = new Map(rows.map((r) => [Number(r.v), r.flags]));
  }, 300_000);
  afterAll(() => indexed?.close());

  it('stores every sale of the facts, each with its flags', () => {
    expect(sales.length).toBeGreaterThan(100);
    expect(flagsByVersion.size).toBe(sales.length);
    for (const s of sales) expect(flagsByVersion.has(s.version), `sale at ${s.version}`).toBe(true);
  });

  it('finds the labelled wash trades with precision and recall of at least 0.95', () => {
    const labelled = sales.filter((s) => s.wash !== null);
    const flagged = sales.filter((s) => (flagsByVersion.get(s.version) ?? []).length > 0);
    const truePositives = flagged.filter((s) => s.wash !== null).length;
    const precision = truePositives / flagged.length;
    const recall = truePositives / labelled.length;
    console.log(
      `wash detection: ${sales.length} sales, ${labelled.length} labelled, ${flagged.length} flagged, ` +
        `precision ${precision.toFixed(3)}, recall ${recall.toFixed(3)}`,
    );
    expect(labelled.length).toBeGreaterThan(20);
    expect(precision).toBeGreaterThanOrEqual(0.95);
    expect(recall).toBeGreaterThanOrEqual(0.95);
  });

  it('gives each labelled sale the reason named by its label', () => {
    for (const label of WASH_RULES.reasons) {
      const of = sales.filter((s) => s.wash === label);
      expect(of.length, label).toBeGreaterThan(0);
      const hit = of.filter((s) => flagsByVersion.get(s.version)?.includes(label));
      expect(hit.length / of.length, label).toBeGreaterThanOrEqual(0.95);
    }
  });

  it('flags self trades exactly where buyer = seller, and only seller-funded sales as seller_funded', () => {
    for (const s of sales) {
      const flags = flagsByVersion.get(s.version) ?? [];
      expect(flags.includes('self_trade'), `${s.version}`).toBe(s.seller === s.buyer);
      expect(flags.includes('seller_funded'), `${s.version}`).toBe(s.wash === 'seller_funded');
    }
  });
});
