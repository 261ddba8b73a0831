import { CompiledQuery, sql } from 'kysely';
import type { Db } from '../../database';

/*
 * Plan inspection, so that tests can prove every API read is index-backed: they capture the SQL an
 * endpoint runs, then ask Postgres how it would execute each statement with the same parameters.
 */

interface PlanNode {
  'Node Type'?: string;
  'Relation Name'?: string;
  Plans?: PlanNode[];
}

/** EXPLAIN (FORMAT JSON) of a compiled statement with its parameters; the root plan node. */
export async function explainPlan(
  db: Db,
  statement: string,
  parameters: readonly unknown[],
): Promise<PlanNode> {
  const result = await db.executeQuery<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(
    CompiledQuery.raw(`EXPLAIN (FORMAT JSON) ${statement}`, [...parameters]),
  );
  const plan = result.rows[0]?.['QUERY PLAN'][0]?.Plan;
  if (!plan) throw new Error('EXPLAIN returned no plan');
  return plan;
}

/** Relations the plan reads with a sequential scan. */
export function seqScannedRelations(plan: PlanNode): string[] {
  const found: string[] = [];
  const visit = (node: PlanNode) => {
    if (node['Node Type'] === 'Seq Scan' && node['Relation Name']) found.push(node['Relation Name']);
    for (const child of node.Plans ?? []) visit(child);
  };
  visit(plan);
  return found;
}

/** Fresh statistics and visibility maps, as autovacuum would leave a loaded database. */
export async function analyzeForPlans(db: Db): Promise<void> {
  await sql`VACUUM ANALYZE`.execute(db);
}
