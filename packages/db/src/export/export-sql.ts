import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../database';
import { decodeCursor, keysetAfter, type SortKey } from '../queries/api/pagination';
import { EXPORT_DATASETS, type ExportDataset, type ExportDatasetName } from './datasets';
import type { ExportColumn } from './export-column';

export type ExportFormat = 'ndjson' | 'csv';

export interface ExportFilter {
  dataset: ExportDatasetName;
  /** Rows of these collections only (resolved from an id or creator + name by the caller). */
  collectionIds?: readonly string[] | undefined;
  /** Long-form address. */
  wallet?: string | undefined;
  fromVersion?: number | undefined;
  toVersion?: number | undefined;
  /** Resume after this cursor (the `next` of a trailer, or encodeCursor of a row's key columns). */
  after?: string | undefined;
}

function datasetOf(name: ExportDatasetName): ExportDataset {
  return EXPORT_DATASETS[name];
}

const ISO = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;

/**
 * A column as the API writes it: u64 as a decimal string, time as ISO-8601 UTC with milliseconds,
 * booleans as true/false, JSON as its text. CSV writes these values; NDJSON adds the JSON syntax
 * around them (copyTextToNdjson), so both formats carry the same values.
 */
function valueSql(column: ExportColumn): string {
  switch (column.type) {
    case 'u64':
    case 'bool':
    case 'json':
      return `(${column.expr})::text`;
    case 'time':
      return `to_char((${column.expr}) AT TIME ZONE 'UTC', ${ISO})`;
    default:
      return column.expr;
  }
}

function sortKeys(dataset: ExportDataset): SortKey[] {
  return dataset.key.map((k) => ({ expr: sql.raw(k.expr), dir: 'asc', kind: k.kind }));
}

function whereOf(filter: ExportFilter): RawBuilder<boolean> {
  const dataset = datasetOf(filter.dataset);
  const terms: RawBuilder<unknown>[] = [sql`true`];
  if (filter.collectionIds) {
    terms.push(sql`${sql.raw(dataset.collection)} = ANY(${[...filter.collectionIds]}::text[])`);
  }
  if (filter.wallet !== undefined) {
    // Each `$wallet` in the predicate becomes the same bound value.
    const parts = dataset.wallet.split('$wallet').map((part) => sql.raw(part));
    terms.push(sql.join(parts, sql`${filter.wallet}`));
  }
  if (filter.fromVersion !== undefined) terms.push(sql`${sql.raw(dataset.version)} >= ${filter.fromVersion}`);
  if (filter.toVersion !== undefined) terms.push(sql`${sql.raw(dataset.version)} <= ${filter.toVersion}`);
  if (filter.after !== undefined) {
    const keys = sortKeys(dataset);
    terms.push(
      keysetAfter(
        keys,
        decodeCursor(
          filter.after,
          keys.map((k) => k.kind),
        ),
      ),
    );
  }
  return sql<boolean>`(${sql.join(terms, sql` AND `)})`;
}

function orderOf(dataset: ExportDataset): string {
  return dataset.key.map((k) => `${k.expr} ASC`).join(', ');
}

/** The SELECT an export runs: one column per field, named as the API names it. */
export function exportSelect(filter: ExportFilter, limit: number | null) {
  const dataset = datasetOf(filter.dataset);
  const fields = dataset.columns.map((c) => `${valueSql(c)} AS "${c.name}"`).join(', ');
  return sql`SELECT ${sql.raw(fields)} FROM ${sql.raw(dataset.from)}
              WHERE ${whereOf(filter)}
              ORDER BY ${sql.raw(orderOf(dataset))}
              ${limit === null ? sql`` : sql`LIMIT ${limit}`}`;
}

/** The key columns of the row at `offset` in export order, and whether a row follows it. */
export function keyAtOffset(filter: ExportFilter, offset: number) {
  const dataset = datasetOf(filter.dataset);
  const keys = dataset.key.map((k, i) => `${k.expr} AS k${i}`).join(', ');
  return sql`SELECT ${sql.raw(keys)} FROM ${sql.raw(dataset.from)}
              WHERE ${whereOf(filter)}
              ORDER BY ${sql.raw(orderOf(dataset))}
              OFFSET ${offset} LIMIT 2`;
}

/**
 * COPY takes no bind parameters, so the compiled statement's parameters are written in as
 * literals. The only values are the caller's filters (already validated: addresses, ids, integers,
 * cursor values that decodeCursor checked), escaped here as Postgres does for E'' strings.
 */
export function inlineParameters(db: Db, query: RawBuilder<unknown>): string {
  const compiled = query.compile(db);
  return compiled.sql.replace(/\$(\d+)/g, (_, n: string) => literal(compiled.parameters[Number(n) - 1]));
}

function literal(value: unknown): string {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`cannot inline ${value}`);
    return String(value);
  }
  if (typeof value === 'string') {
    const quoted = `'${value.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
    return value.includes('\\') ? `E${quoted}` : quoted;
  }
  if (Array.isArray(value)) return `ARRAY[${value.map(literal).join(', ')}]::text[]`;
  throw new Error(`cannot inline a ${typeof value} parameter`);
}

/**
 * The COPY statement streaming the export: CSV with a header, or for NDJSON COPY's text format,
 * which copyTextToNdjson turns into JSON lines.
 */
export function copyStatement(
  db: Db,
  filter: ExportFilter,
  format: ExportFormat,
  limit: number | null,
): string {
  const select = inlineParameters(db, exportSelect(filter, limit));
  const options = format === 'csv' ? 'FORMAT csv, HEADER true' : 'FORMAT text';
  return `COPY (${select}) TO STDOUT WITH (${options})`;
}

/** Rows an export would hold (the CLI's progress total; its own statement, not the export's snapshot). */
export async function countExportRows(db: Db, filter: ExportFilter): Promise<number> {
  const dataset = datasetOf(filter.dataset);
  const { rows } = await sql<{ n: number }>`
    SELECT count(*)::bigint AS n FROM ${sql.raw(dataset.from)} WHERE ${whereOf(filter)}`.execute(db);
  return Number(rows[0]?.n ?? 0);
}
