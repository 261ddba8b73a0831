import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../database';
import { executePrepared, FrequentShapes } from '../../prepared';
import { type Alias, INDEXER_TABLES, type IndexerScalar, type IndexerTable } from './tables';

/*
 * Hasura's query language over the table descriptions of tables.ts, compiled to one SQL statement
 * per operation (a subquery per root field). Only identifiers taken from the descriptions, generated
 * row aliases, and numbers and Booleans checked to be exactly that (bind) are written into the text;
 * every other value is a bound parameter. The inputs arrive already coerced by the
 * GraphQL schema built from the same descriptions (apps/api), so names and types are known good;
 * what the schema cannot say (null comparands, nesting) is checked here.
 */

/** A `where` (Hasura `<table>_bool_exp`), as coerced by the GraphQL schema. */
export type BoolExp = { readonly [key: string]: unknown };
/** One `<table>_order_by` object: column -> direction, relation -> nested order. */
export type OrderBy = { readonly [key: string]: unknown };

export type Selection = readonly SelectionItem[];
export type SelectionItem =
  | { key: string; column: string }
  | { key: string; typename: string }
  | { key: string; relation: string; selection: Selection };

export interface RowsArgs {
  where?: BoolExp | null;
  orderBy?: readonly OrderBy[] | null;
  /** Null: every row (aggregates). */
  limit: number | null;
  offset?: number | null;
  distinctOn?: readonly string[] | null;
}

export type CountSelection = readonly (
  | { key: string; typename: string }
  | { key: string; count: { columns?: readonly string[] | null; distinct?: boolean | null } }
)[];

export type RootField =
  | ({ kind: 'rows'; table: string; selection: Selection } & RowsArgs)
  | ({
      kind: 'aggregate';
      table: string;
      selection: readonly ({ key: string; typename: string } | { key: string; aggregate: CountSelection })[];
    } & RowsArgs);

/** Input the schema accepts but the query language refuses; the API answers it as a GraphQL error. */
export class IndexerQueryError extends Error {}

/** How deep `_and` / `_or` / `_not` and relationships may nest in one `where`. */
export const MAX_WHERE_DEPTH = 8;

const TABLES = new Map(INDEXER_TABLES.map((t) => [t.name, t]));

function tableOf(name: string): IndexerTable {
  const table = TABLES.get(name);
  if (!table) throw new IndexerQueryError(`unknown table '${name}'`);
  return table;
}

const CAST: Record<IndexerScalar, string> = {
  String: 'text',
  Boolean: 'boolean',
  Int: 'integer',
  bigint: 'bigint',
  numeric: 'numeric',
  timestamp: 'timestamp',
  jsonb: 'jsonb',
};

/** Generates the row aliases of one statement. */
class Aliases {
  #next = 0;
  fresh(): Alias {
    const alias = sql.raw(`t${this.#next}`);
    this.#next += 1;
    return alias;
  }
}

/** A number exactly as it may be written into a statement: digits, a sign, a decimal point. */
const NUMBER = /^-?(0|[1-9][0-9]{0,39})(\.[0-9]{1,40})?$/;

/** The text of a number or Boolean comparand, or undefined when it is anything else. */
function literalOf(type: IndexerScalar, value: unknown): string | undefined {
  if (type === 'Boolean') return value === true ? 'true' : value === false ? 'false' : undefined;
  if (type !== 'Int' && type !== 'bigint' && type !== 'numeric') return undefined;
  const text = typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
  return typeof text === 'string' && NUMBER.test(text) ? text : undefined;
}

/**
 * A comparand. Numbers and Booleans are written into the text (only texts NUMBER matches): a plan
 * can depend on them, and the generic plan of a prepared statement would be blind to a bound one
 * (`amount > 0` is the predicate of the owners' partial index: bound, a wallet's token count read
 * every token it ever held, 1.8 ms against 0.4 ms written in). Strings (addresses, ids, names),
 * whose plan is the same for every value, are bound, so one document is one text whatever it is
 * asked about.
 */
function bind(type: IndexerScalar, value: unknown): RawBuilder<unknown> {
  const literal = literalOf(type, value);
  if (literal !== undefined) return sql`(${sql.raw(literal)})::${sql.raw(CAST[type])}`;
  const text = type === 'jsonb' ? JSON.stringify(value) : value;
  return sql`${text}::${sql.raw(CAST[type])}`;
}

function bindList(type: IndexerScalar, values: unknown): RawBuilder<unknown> {
  if (!Array.isArray(values)) throw new IndexerQueryError('_in / _nin take a list');
  const items = type === 'jsonb' ? values.map((v) => JSON.stringify(v)) : values;
  return sql`${sql.val(items)}::${sql.raw(CAST[type])}[]`;
}

const COMPARE: Record<string, string> = { _eq: '=', _neq: '<>', _gt: '>', _gte: '>=', _lt: '<', _lte: '<=' };
const LIKE: Record<string, string> = {
  _like: 'LIKE',
  _nlike: 'NOT LIKE',
  _ilike: 'ILIKE',
  _nilike: 'NOT ILIKE',
};

function comparison(type: IndexerScalar, expr: RawBuilder<unknown>, ops: BoolExp, name: string) {
  const parts: RawBuilder<unknown>[] = [];
  for (const [op, value] of Object.entries(ops)) {
    if (value === undefined) continue;
    if (value === null)
      throw new IndexerQueryError(`${name}.${op}: null is not a value to compare; use _is_null`);
    const compare = COMPARE[op];
    const like = LIKE[op];
    if (compare) parts.push(sql`${expr} ${sql.raw(compare)} ${bind(type, value)}`);
    else if (like) parts.push(sql`${expr} ${sql.raw(like)} ${bind('String', value)}`);
    else if (op === '_in') parts.push(sql`${expr} = ANY(${bindList(type, value)})`);
    else if (op === '_nin') parts.push(sql`NOT (${expr} = ANY(${bindList(type, value)}))`);
    else if (op === '_is_null') parts.push(value ? sql`${expr} IS NULL` : sql`${expr} IS NOT NULL`);
    else if (op === '_contains') parts.push(sql`${expr} @> ${bind('jsonb', value)}`);
    else if (op === '_contained_in') parts.push(sql`${expr} <@ ${bind('jsonb', value)}`);
    else if (op === '_has_key') parts.push(sql`${expr} ? ${bind('String', value)}`);
    else if (op === '_has_keys_any') parts.push(sql`${expr} ?| ${bindList('String', value)}`);
    else if (op === '_has_keys_all') parts.push(sql`${expr} ?& ${bindList('String', value)}`);
    else throw new IndexerQueryError(`${name}: unknown operator '${op}'`);
  }
  return and(parts);
}

const and = (parts: RawBuilder<unknown>[]) =>
  parts.length === 0 ? sql`true` : sql`(${sql.join(parts, sql` AND `)})`;

function whereSql(
  table: IndexerTable,
  t: Alias,
  where: BoolExp,
  aliases: Aliases,
  depth: number,
): RawBuilder<unknown> {
  if (depth > MAX_WHERE_DEPTH)
    throw new IndexerQueryError(`where nests deeper than ${MAX_WHERE_DEPTH} levels`);
  const parts: RawBuilder<unknown>[] = [];
  for (const [key, value] of Object.entries(where)) {
    if (value === undefined) continue;
    if (value === null) throw new IndexerQueryError(`where.${key}: null is not a condition`);
    if (key === '_and' || key === '_or') {
      const items = (Array.isArray(value) ? value : [value]) as BoolExp[];
      const inner = items.map((item) => whereSql(table, t, item, aliases, depth + 1));
      if (key === '_and') parts.push(and(inner));
      else parts.push(inner.length === 0 ? sql`false` : sql`(${sql.join(inner, sql` OR `)})`);
    } else if (key === '_not') {
      parts.push(sql`NOT ${whereSql(table, t, value as BoolExp, aliases, depth + 1)}`);
    } else if (table.columns[key]) {
      const column = table.columns[key];
      parts.push(comparison(column.type, column.sql(t), value as BoolExp, key));
    } else if (table.relations[key]) {
      const relation = table.relations[key];
      const target = tableOf(relation.target);
      const c = aliases.fresh();
      const inner = whereSql(target, c, value as BoolExp, aliases, depth + 1);
      parts.push(sql`EXISTS (SELECT 1 FROM ${target.from(c)} WHERE ${relation.on(t, c)} AND ${inner})`);
    } else {
      throw new IndexerQueryError(`'${key}' is not a field of ${table.name}`);
    }
  }
  return and(parts);
}

const DIRECTION: Record<string, string> = {
  asc: 'ASC NULLS LAST',
  asc_nulls_last: 'ASC NULLS LAST',
  asc_nulls_first: 'ASC NULLS FIRST',
  desc: 'DESC NULLS FIRST',
  desc_nulls_first: 'DESC NULLS FIRST',
  desc_nulls_last: 'DESC NULLS LAST',
};

interface OrderTerm {
  expr: RawBuilder<unknown>;
  direction: string;
}

function orderTerms(
  table: IndexerTable,
  t: Alias,
  order: OrderBy,
  aliases: Aliases,
  depth: number,
): OrderTerm[] {
  if (depth > MAX_WHERE_DEPTH)
    throw new IndexerQueryError(`order_by nests deeper than ${MAX_WHERE_DEPTH} levels`);
  const terms: OrderTerm[] = [];
  for (const [key, value] of Object.entries(order)) {
    if (value === undefined || value === null) continue;
    const column = table.columns[key];
    const relation = table.relations[key];
    if (column) {
      const direction = DIRECTION[value as string];
      if (!direction) throw new IndexerQueryError(`order_by.${key}: unknown direction '${String(value)}'`);
      terms.push({ expr: column.sql(t), direction });
    } else if (relation) {
      const target = tableOf(relation.target);
      const c = aliases.fresh();
      for (const inner of orderTerms(target, c, value as OrderBy, aliases, depth + 1)) {
        terms.push({
          expr: sql`(SELECT ${inner.expr} FROM ${target.from(c)} WHERE ${relation.on(t, c)} LIMIT 1)`,
          direction: inner.direction,
        });
      }
    } else {
      throw new IndexerQueryError(`'${key}' is not a field of ${table.name}`);
    }
  }
  return terms;
}

/** JSON of one row of `table` (alias `t`) with the selected fields, in the selection's order. */
function objectSql(
  table: IndexerTable,
  t: Alias,
  selection: Selection,
  aliases: Aliases,
): RawBuilder<unknown> {
  const pairs: RawBuilder<unknown>[] = [];
  for (const item of selection) {
    pairs.push(sql`${item.key}::text`);
    if ('typename' in item) pairs.push(sql`${item.typename}::text`);
    else if ('column' in item) {
      const column = table.columns[item.column];
      if (!column) throw new IndexerQueryError(`'${item.column}' is not a field of ${table.name}`);
      pairs.push(column.sql(t));
    } else {
      const relation = table.relations[item.relation];
      if (!relation) throw new IndexerQueryError(`'${item.relation}' is not a field of ${table.name}`);
      const target = tableOf(relation.target);
      const c = aliases.fresh();
      pairs.push(
        sql`(SELECT ${objectSql(target, c, item.selection, aliases)} FROM ${target.from(c)}
          WHERE ${relation.on(t, c)} LIMIT 1)`,
      );
    }
  }
  return sql`json_build_object(${sql.join(pairs)})`;
}

/** A LIMIT or OFFSET, written into the text as the other numbers are (bind). */
function rowCount(n: number | null): RawBuilder<unknown> {
  if (n === null) return sql.raw('ALL');
  if (!Number.isSafeInteger(n) || n < 0) throw new IndexerQueryError(`${n} is not a row count`);
  return sql.raw(String(n));
}

/** The rows a root field reads: its table filtered, ordered, made distinct and paged. */
function rowsQuery(
  table: IndexerTable,
  t: Alias,
  args: RowsArgs,
  aliases: Aliases,
  output: RawBuilder<unknown>,
) {
  const where = args.where ? whereSql(table, t, args.where, aliases, 0) : sql`true`;
  let terms = (args.orderBy ?? []).flatMap((order) => orderTerms(table, t, order, aliases, 0));
  let distinct = sql``;
  if (args.distinctOn && args.distinctOn.length > 0) {
    const exprs = args.distinctOn.map((name) => {
      const column = table.columns[name];
      if (!column) throw new IndexerQueryError(`distinct_on: '${name}' is not a column of ${table.name}`);
      return column.sql(t);
    });
    distinct = sql`DISTINCT ON (${sql.join(exprs)})`;
    // Postgres needs DISTINCT ON's expressions to lead the ORDER BY; the caller's order follows.
    terms = [...exprs.map((expr) => ({ expr, direction: 'ASC NULLS LAST' })), ...terms];
  }
  const orderBy =
    terms.length > 0
      ? sql`ORDER BY ${sql.join(terms.map((o) => sql`${o.expr} ${sql.raw(o.direction)}`))}`
      : sql``;
  return sql`SELECT ${distinct} ${output} FROM ${table.from(t)} WHERE ${where} ${orderBy}
    LIMIT ${rowCount(args.limit)} OFFSET ${rowCount(args.offset ?? 0)}`;
}

/** One root field as one SQL statement answering JSON text: an array of rows, or the aggregate object. */
export function compileRootField(field: RootField): RawBuilder<{ j: string }> {
  const table = tableOf(field.table);
  const aliases = new Aliases();
  const t = aliases.fresh();
  if (field.kind === 'rows') {
    const rows = rowsQuery(
      table,
      t,
      field,
      aliases,
      sql`${objectSql(table, t, field.selection, aliases)} AS j`,
    );
    return sql<{ j: string }>`SELECT coalesce(json_agg(r.j ORDER BY r.n), '[]'::json)::text AS j
      FROM (SELECT s.j, row_number() OVER () AS n FROM (${rows}) s) r`;
  }
  // Aggregates read the same rows; the count's columns come along as c0, c1, ...
  const counted = new Map<string, RawBuilder<unknown>>();
  const outputs: RawBuilder<unknown>[] = [sql`1 AS one`];
  for (const name of field.selection.flatMap((item) =>
    'aggregate' in item ? item.aggregate.flatMap((a) => ('count' in a ? (a.count.columns ?? []) : [])) : [],
  )) {
    const column = table.columns[name];
    if (!column) throw new IndexerQueryError(`count: '${name}' is not a column of ${table.name}`);
    if (!counted.has(name)) {
      const out = sql.raw(`c${counted.size}`);
      counted.set(name, sql`s.${out}`);
      outputs.push(sql`${column.sql(t)} AS ${out}`);
    }
  }
  const rows = rowsQuery(table, t, field, aliases, sql.join(outputs));
  const count = (spec: { columns?: readonly string[] | null; distinct?: boolean | null }) => {
    const cols = (spec.columns ?? []).map((name) => counted.get(name) as RawBuilder<unknown>);
    if (cols.length === 0) return sql`count(*)`;
    if (spec.distinct) return sql`count(DISTINCT (${sql.join(cols)}))`;
    return sql`count(*) FILTER (WHERE ${sql.join(
      cols.map((c) => sql`${c} IS NOT NULL`),
      sql` AND `,
    )})`;
  };
  const pairs: RawBuilder<unknown>[] = [];
  for (const item of field.selection) {
    pairs.push(sql`${item.key}::text`);
    if ('typename' in item) {
      pairs.push(sql`${item.typename}::text`);
      continue;
    }
    const inner: RawBuilder<unknown>[] = [];
    for (const agg of item.aggregate) {
      inner.push(sql`${agg.key}::text`);
      inner.push('typename' in agg ? sql`${agg.typename}::text` : count(agg.count));
    }
    pairs.push(sql`json_build_object(${sql.join(inner)})`);
  }
  return sql<{ j: string }>`SELECT json_build_object(${sql.join(pairs)})::text AS j FROM (${rows}) s`;
}

/** Texts of the Indexer GraphQL's statements that run prepared (FrequentShapes: bounded). */
const shapes = new FrequentShapes();

/**
 * Runs the root fields of one GraphQL operation as one statement, each field's JSON text a column
 * of its one row: one snapshot for the whole operation, as Hasura answers a query, and one round
 * trip. The statement's time limit and read-only access are its connection's (the API's GraphQL
 * pool). The texts clients send again and again run prepared, planned once per connection: the
 * planning of a token's data took 0.8 ms against 0.05 ms to run it (docs/PERFORMANCE.md).
 */
export async function runIndexerFields(db: Db, fields: RootField[]): Promise<string[]> {
  const columns = fields.map((field, i) => sql`(${compileRootField(field)}) AS ${sql.raw(`j${i}`)}`);
  const [row] = await executePrepared(
    db,
    sql<Record<string, string | null>>`SELECT ${sql.join(columns)}`,
    shapes,
  );
  return fields.map((_, i) => row?.[`j${i}`] ?? 'null');
}
