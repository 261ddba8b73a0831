import { CompiledQuery, sql } from 'kysely';
import type { Db } from '../../database';

/*
 * Plan inspection, so that tests can prove every API read is index-backed: they capture the SQL an
 * endpoint runs, then ask Postgres how it would execute each statement with the same parameters.
 */

interface PlanNode {
  'Node Type'?: string;
  'Relation Name'?: string;
  'Index Cond'?: string;
  'Recheck Cond'?: string;
  Filter?: string;
  Plans?: PlanNode[];
}

/** One scan of a relation in a plan: which relation, and the conditions the scan itself applies. */
export interface RelationScan {
  relation: string;
  /** Index, recheck and filter conditions, as EXPLAIN prints them. */
  conditions: string[];
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

/**
 * Every scan of a relation in the plan (init plans, sub plans and CTEs included: they are child
 * nodes), so that a test can compare what a statement reads with what its caller declared.
 */
export function relationScans(plan: PlanNode): RelationScan[] {
  const found: RelationScan[] = [];
  const visit = (node: PlanNode) => {
    if (node['Relation Name']) {
      const conditions = [node['Index Cond'], node['Recheck Cond'], node.Filter].filter(
        (c): c is string => c !== undefined,
      );
      found.push({ relation: node['Relation Name'], conditions });
    }
    for (const child of node.Plans ?? []) visit(child);
  };
  visit(plan);
  return found;
}

/** Fresh statistics and visibility maps, as autovacuum would leave a loaded database. */
export async function analyzeForPlans(db: Db): Promise<void> {
  await sql`VACUUM ANALYZE`.execute(db);
}
