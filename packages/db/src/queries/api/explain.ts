import { CompiledQuery, sql } from 'kysely';
import type { Db } from '../../database';

/*
 * Plan inspection, so that tests can prove every API read is index-backed: they capture the SQL an
 * endpoint runs, then ask Postgres how it would execute each statement with the same parameters.
 */

interface PlanNode {
  'Node Type'?: string;
  'Parent Relationship'?: string;
  'Relation Name'?: string;
  Alias?: string;
  /** With VERBOSE: the columns and expressions the node emits. */
  Output?: string[];
  'Function Name'?: string;
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
  options: { verbose?: boolean } = {},
): Promise<PlanNode> {
  const result = await db.executeQuery<{ 'QUERY PLAN': { Plan: PlanNode }[] }>(
    CompiledQuery.raw(`EXPLAIN (FORMAT JSON${options.verbose ? ', VERBOSE' : ''}) ${statement}`, [
      ...parameters,
    ]),
  );
  const plan = result.rows[0]?.['QUERY PLAN'][0]?.Plan;
  if (!plan) throw new Error('EXPLAIN returned no plan');
  return plan;
}

/** What `pick` names of each node of the plan, init plans, sub plans and CTEs included. */
function namesIn(plan: PlanNode, pick: (node: PlanNode) => string | undefined): string[] {
  const found: string[] = [];
  const visit = (node: PlanNode) => {
    const name = pick(node);
    if (name) found.push(name);
    for (const child of node.Plans ?? []) visit(child);
  };
  visit(plan);
  return found;
}

/** Relations the plan reads with a sequential scan. */
export function seqScannedRelations(plan: PlanNode): string[] {
  return namesIn(plan, (node) => (node['Node Type'] === 'Seq Scan' ? node['Relation Name'] : undefined));
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

/**
 * Nodes that emit their input's rows as they are: a scan's output may be its table's every column
 * (Postgres skips projecting it when the node above projects anyway), and these pass that on.
 */
const PASS_THROUGH = new Set([
  'Hash',
  'Materialize',
  'Memoize',
  'Sort',
  'Incremental Sort',
  'Limit',
  'Unique',
]);

/**
 * Which of `columns` of `relation` a VERBOSE plan reads: named in any node's conditions, keys or
 * computed output, or wholly (`alias.*`). A scan's or pass-through node's output counts only where
 * no projecting node above it says what is used of it (the plan's root, a sub plan's or init
 * plan's, below a subquery scan or an append): there it is what the statement hands on.
 * Conservative: an alias shared with another relation counts for both, and so does a column name
 * left unqualified (as EXPLAIN prints a one-relation statement's); a name in a string constant does
 * not count.
 */
export function columnsRead(plan: PlanNode, relation: string, columns: readonly string[]): string[] {
  const aliases = new Set<string>();
  const texts: string[] = [];
  const visit = (node: PlanNode, parent: PlanNode | undefined) => {
    if (node['Relation Name'] === relation) aliases.add(node.Alias ?? relation);
    const emitsAsIs = node['Relation Name'] !== undefined || PASS_THROUGH.has(node['Node Type'] ?? '');
    const usedAbove =
      parent !== undefined &&
      !['InitPlan', 'SubPlan'].includes(node['Parent Relationship'] ?? '') &&
      !['Subquery Scan', 'Append', 'Merge Append', 'CTE Scan'].includes(parent['Node Type'] ?? '');
    for (const [key, value] of Object.entries(node)) {
      if (key === 'Plans') continue;
      if (key === 'Output' && emitsAsIs && usedAbove) continue;
      if (typeof value === 'string') texts.push(value);
      else if (Array.isArray(value)) texts.push(...value.filter((v): v is string => typeof v === 'string'));
    }
    for (const child of node.Plans ?? []) visit(child, node);
  };
  visit(plan, undefined);
  // String constants are no column: a JSON key named as a column ('last_transaction_version'::text) read none.
  const text = texts.join('\n').replace(/'(?:[^']|'')*'/g, "''");
  const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  if (aliases.size === 0) return [];
  // EXPLAIN leaves a column unqualified when the statement reads one relation: a bare name counts too.
  return columns.filter(
    (column) =>
      new RegExp(`(^|[^\\w.])${literal(column)}\\b`).test(text) ||
      [...aliases].some((alias) =>
        new RegExp(`(^|[^\\w.])${literal(alias)}\\.(${literal(column)}\\b|\\*)`).test(text),
      ),
  );
}

/** The functions the plan reads rows from (its Function Scans), by name: their tables are not in the plan. */
export function scannedFunctions(plan: PlanNode): string[] {
  return namesIn(plan, (node) => (node['Node Type'] === 'Function Scan' ? node['Function Name'] : undefined));
}

/**
 * The tables of the schema that the body of function `name` names (every overload's), as whole
 * words: what a scan of a set-returning SQL function such as active_listings_matching reads.
 */
export async function tablesNamedByFunction(db: Db, name: string): Promise<string[]> {
  const { rows } = await sql<{ table: string }>`
    SELECT c.relname AS table FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p')
       AND EXISTS (SELECT 1 FROM pg_proc p WHERE p.proname = ${name} AND p.prosrc ~ ('\\m' || c.relname || '\\M'))
     ORDER BY 1`.execute(db);
  return rows.map((r) => r.table);
}

/** Fresh statistics and visibility maps, as autovacuum would leave a loaded database. */
export async function analyzeForPlans(db: Db): Promise<void> {
  await sql`VACUUM ANALYZE`.execute(db);
}
