import { COLLECTION_VERSIONED_TABLES, type ScopeSelector, WALLET_VERSIONED_TABLES } from '../freshness';
import type { BoolExp, OrderBy, RootField, Selection } from './compile';
import { INDEXER_TABLES, type IndexerTable, type Read } from './tables';

/*
 * What an operation's statement reads, as write counters: what the API's response cache keys a
 * GraphQL answer by (apps/api, the GraphQL route). Derived from the table descriptions
 * (tables.ts: each table's and column's `reads`, each relation's `of`) and the operation's own
 * columns, relations and `where`. test/indexer-graphql-reads.test.ts checks the descriptions
 * against the plans of the statements they compile to.
 *
 * A root field whose conjunctive `where` compares a scope column `_eq` to one stored-form id reads
 * rows of one scope. For a collection, a token (its collection) or a (creator, name) pair, every
 * row reached from those rows by token or collection is of the same collection(s), so each read
 * of a COLLECTION_VERSIONED_TABLES table keys on the collection's counters. For a wallet, its
 * rows of WALLET_VERSIONED_TABLES key on its bucket's counters, and so do the tokens of its
 * ownership rows and listings (functions/bump_wallet_tokens_version.sql counts a token under the
 * wallets with either); what is reached further (a token's collection) keys on the global ones.
 */

/** The scope an operation's scoped reads are of, and the counters keyed on it. */
export interface ReadsScope {
  kind: 'collection' | 'wallet';
  selector: ScopeSelector;
  tables: string[];
}

export interface OperationReads {
  /** Every write counter the operation's statement reads, sorted. */
  tables: string[];
  /** Present when some of them key on one scope's counters. */
  scope?: ReadsScope;
}

/** The columns and relations one table of a statement uses: selected, filtered, ordered or counted. */
interface Use {
  columns: Set<string>;
  relations: Map<string, Use>;
}

const TABLES = new Map(INDEXER_TABLES.map((t) => [t.name, t]));
const COLLECTION_SCOPED = new Set<string>(COLLECTION_VERSIONED_TABLES);
const WALLET_SCOPED = new Set<string>(WALLET_VERSIONED_TABLES);
/** The tables whose rows make a token count under a wallet's bucket (bump_wallet_tokens_version). */
const TOKEN_HOLDERS = new Set(['token_ownerships', 'listings']);
/** An id or address as mdq stores it: the rows a scope's counters count carry exactly this form. */
const STORED_ID = /^0x[0-9a-f]{64}$/;

const tableOf = (name: string): IndexerTable => {
  const table = TABLES.get(name);
  if (!table) throw new Error(`unknown table '${name}'`);
  return table;
};
const emptyUse = (): Use => ({ columns: new Set(), relations: new Map() });

function relationUse(use: Use, name: string): Use {
  let inner = use.relations.get(name);
  if (!inner) {
    inner = emptyUse();
    use.relations.set(name, inner);
  }
  return inner;
}

function useSelection(use: Use, selection: Selection): void {
  for (const item of selection) {
    if ('column' in item) use.columns.add(item.column);
    else if ('relation' in item) useSelection(relationUse(use, item.relation), item.selection);
  }
}

function useWhere(table: IndexerTable, use: Use, where: BoolExp): void {
  for (const [key, value] of Object.entries(where)) {
    if (value === undefined || value === null) continue;
    if (key === '_and' || key === '_or') {
      for (const item of (Array.isArray(value) ? value : [value]) as BoolExp[]) useWhere(table, use, item);
    } else if (key === '_not') useWhere(table, use, value as BoolExp);
    else if (table.columns[key]) use.columns.add(key);
    else if (table.relations[key]) {
      const target = tableOf(table.relations[key].target);
      useWhere(target, relationUse(use, key), value as BoolExp);
    }
  }
}

function useOrder(table: IndexerTable, use: Use, order: OrderBy): void {
  for (const [key, value] of Object.entries(order)) {
    if (value === undefined || value === null) continue;
    if (table.columns[key]) use.columns.add(key);
    else if (table.relations[key]) {
      useOrder(tableOf(table.relations[key].target), relationUse(use, key), value as OrderBy);
    }
  }
}

/** Every column and relation a root field's statement uses. */
function useOf(table: IndexerTable, field: RootField): Use {
  const use = emptyUse();
  if (field.kind === 'rows') useSelection(use, field.selection);
  else {
    for (const item of field.selection) {
      if (!('aggregate' in item)) continue;
      for (const agg of item.aggregate)
        if ('count' in agg) for (const c of agg.count.columns ?? []) use.columns.add(c);
    }
  }
  if (field.where) useWhere(table, use, field.where);
  for (const order of field.orderBy ?? []) useOrder(table, use, order);
  for (const column of field.distinctOn ?? []) use.columns.add(column);
  return use;
}

/** The string each column is compared `_eq` to in the conjunctive part of `where` (top level, `_and`). */
function equalities(where: BoolExp | null | undefined, out = new Map<string, string>()): Map<string, string> {
  for (const [key, value] of Object.entries(where ?? {})) {
    if (value === undefined || value === null) continue;
    if (key === '_and') {
      for (const item of (Array.isArray(value) ? value : [value]) as BoolExp[]) equalities(item, out);
    } else if (typeof value === 'object' && typeof (value as BoolExp)['_eq'] === 'string') {
      out.set(key, (value as BoolExp)['_eq'] as string);
    }
  }
  return out;
}

/** The scope a root field's rows are restricted to, if any: a collection's first (it keys most reads). */
function scopeOf(table: IndexerTable, field: RootField): Omit<ReadsScope, 'tables'> | undefined {
  const eq = equalities(field.where);
  const stored = (column: string | undefined) => {
    const value = column === undefined ? undefined : eq.get(column);
    return value !== undefined && STORED_ID.test(value) ? value : undefined;
  };
  const id = stored(table.scopes.collection);
  if (id) return { kind: 'collection', selector: { id } };
  const token = stored(table.scopes.token);
  if (token) return { kind: 'collection', selector: { token } };
  const pair = table.scopes.pair;
  const creator = stored(pair?.[0]);
  const name = pair ? eq.get(pair[1]) : undefined;
  if (creator && name !== undefined) return { kind: 'collection', selector: { creator, name } };
  for (const column of table.scopes.wallets ?? []) {
    const wallet = stored(column);
    if (wallet) return { kind: 'wallet', selector: { wallet } };
  }
  return undefined;
}

/**
 * Where a table's rows stand to the root field's scope: its own rows (`rows`), the tokens of those
 * rows (`tokens`, which a wallet's holdings count), or neither (`other`, the global counters).
 */
type Place = 'rows' | 'tokens' | 'other';

/** Each read of one root field, with whether it keys on the field's scope. */
function fieldReads(field: RootField): { scope?: Omit<ReadsScope, 'tables'>; reads: Map<string, boolean[]> } {
  const root = tableOf(field.table);
  const scope = scopeOf(root, field);
  const holds = root.reads.some((r) => r.of === 'row' && TOKEN_HOLDERS.has(r.table));
  const reads = new Map<string, boolean[]>();
  const scoped = (read: Read, place: Place): boolean => {
    if (!scope || place === 'other' || read.of === 'any') return false;
    if (scope.kind === 'collection') return COLLECTION_SCOPED.has(read.table);
    if (place === 'rows' && read.of === 'row') return WALLET_SCOPED.has(read.table);
    return read.table === 'tokens' && read.of !== 'collection' && holds;
  };
  const visit = (table: IndexerTable, use: Use, place: Place) => {
    const all = [...table.reads, ...[...use.columns].flatMap((c) => table.columns[c]?.reads ?? [])];
    for (const read of all) {
      const list = reads.get(read.table) ?? [];
      list.push(scoped(read, place));
      reads.set(read.table, list);
    }
    for (const [name, inner] of use.relations) {
      const relation = table.relations[name];
      if (!relation) continue;
      // A collection's rows reach only its tokens and itself; a wallet's, its holdings' tokens.
      const next: Place =
        scope?.kind === 'collection'
          ? place
          : place === 'rows' && relation.of === 'token'
            ? 'tokens'
            : 'other';
      visit(tableOf(relation.target), inner, next);
    }
  };
  visit(root, useOf(root, field), 'rows');
  return { scope, reads };
}

const selectorText = (selector: ScopeSelector) => JSON.stringify(selector);

/**
 * The write counters `fields` (one operation, one statement) read, and which of them key on the
 * one scope every scoped field shares (fields of two scopes key every read on the global counters).
 * A table read scoped in one place and not in another keys on its global counter; a table whose
 * identity counter and whole counter are both read keys on the whole one (it counts every write
 * the other does).
 */
export function operationReads(fields: readonly RootField[]): OperationReads {
  const each = fields.map(fieldReads);
  const scopes = new Set(each.flatMap((f) => (f.scope ? [selectorText(f.scope.selector)] : [])));
  const shared = scopes.size === 1 ? each.find((f) => f.scope)?.scope : undefined;
  const reads = new Map<string, boolean>();
  for (const field of each) {
    for (const [table, list] of field.reads) {
      const scoped = shared !== undefined && list.every(Boolean);
      reads.set(table, (reads.get(table) ?? true) && scoped);
    }
  }
  const identity = reads.get('collections:identity');
  if (identity !== undefined && reads.has('collections')) {
    reads.set('collections', (reads.get('collections') as boolean) && identity);
    reads.delete('collections:identity');
  }
  const tables = [...reads.keys()].sort();
  const scopedTables = tables.filter((t) => reads.get(t));
  return shared && scopedTables.length > 0
    ? { tables, scope: { ...shared, tables: scopedTables } }
    : { tables };
}
