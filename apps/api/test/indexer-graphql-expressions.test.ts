import { createApiKey } from '@mdq/db';
import { createTestDatabase, type TestDatabase } from '@mdq/db/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/index';

/*
 * Hasura's expression language as /v1/graphql compiles it, against a plain reference: generated
 * `where` / `order_by` / `limit` / `offset` / `distinct_on` combinations over generated tokens and
 * collections (nulls, both token standards, tokens whose collection is missing) are evaluated here
 * in JS with SQL's three-valued logic, and the endpoint must answer the same rows in the same order.
 */

let seed = 36;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
};
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
const hex = (n: number) => `0x${n.toString(16).padStart(64, '0')}`;
const WORDS = ['ape', 'apex', 'bear', 'bee', 'cat', 'cats', 'dog'];

type Value = string | boolean | bigint | Record<string, string> | null;
type Row = { [column: string]: Value | Record<string, Value> | null } & {
  current_collection: Record<string, Value> | null;
};
type Kind = 'text' | 'number' | 'bool' | 'time' | 'json';

const TOKEN_COLUMNS: Record<string, Kind> = {
  token_data_id: 'text',
  collection_id: 'text',
  token_name: 'text',
  description: 'text',
  token_standard: 'text',
  supply: 'number',
  maximum: 'number',
  is_deleted_v2: 'bool',
  last_transaction_version: 'number',
  last_transaction_timestamp: 'time',
  token_properties: 'json',
};
const COLLECTION_COLUMNS: Record<string, Kind> = {
  collection_name: 'text',
  creator_address: 'text',
  max_supply: 'number',
  total_minted_v2: 'number',
};

function generate() {
  const collections = Array.from({ length: 4 }, (_, i) => ({
    collection_id: hex(1000 + i),
    token_standard: i % 2 === 0 ? ('v2' as const) : ('v1' as const),
    creator_address: hex(500 + (i % 2)),
    collection_name: pick(WORDS),
    max_supply: random() < 0.3 ? null : String(Math.floor(random() * 100)),
    total_minted: String(Math.floor(random() * 50)),
    created_at: new Date(Date.UTC(2024, 0, 1 + i)).toISOString(),
    created_version: 10 + i,
    last_transaction_version: 10 + i,
  }));
  const tokens = Array.from({ length: 40 }, (_, i) => {
    const standard = random() < 0.5 ? ('v1' as const) : ('v2' as const);
    // Some tokens name a collection that has no row: the relationship is null for them.
    const collection = random() < 0.1 ? hex(1999) : pick(collections).collection_id;
    return {
      token_data_id: hex(i + 1),
      token_standard: standard,
      collection_id: collection,
      token_name: `${pick(WORDS)} ${Math.floor(random() * 5)}`,
      description: random() < 0.3 ? null : pick(WORDS),
      supply: random() < 0.3 ? null : String(Math.floor(random() * 20)),
      maximum: random() < 0.3 ? null : String(Math.floor(random() * 20)),
      is_burned: random() < 0.3,
      properties:
        random() < 0.3 ? null : JSON.stringify({ color: pick(['red', 'blue']), size: pick(['s', 'm']) }),
      minted_at: new Date(
        Date.UTC(2024, 1, 1 + Math.floor(random() * 5), Math.floor(random() * 3)),
      ).toISOString(),
      last_transaction_version: 100 + Math.floor(random() * 20),
    };
  });
  return { collections, tokens };
}

/** The official mapping, restated plainly: v1-only and v2-only columns are null for the other standard. */
function referenceRows(data: ReturnType<typeof generate>): Row[] {
  const collections = new Map(
    data.collections.map((c) => [
      c.collection_id,
      {
        collection_name: c.collection_name,
        creator_address: c.creator_address,
        max_supply: c.max_supply === null ? null : BigInt(c.max_supply),
        total_minted_v2: c.token_standard === 'v2' ? BigInt(c.total_minted) : null,
      },
    ]),
  );
  return data.tokens.map((t) => ({
    token_data_id: t.token_data_id,
    collection_id: t.collection_id,
    token_name: t.token_name,
    description: t.description ?? '',
    token_standard: t.token_standard,
    supply: t.token_standard === 'v1' && t.supply !== null ? BigInt(t.supply) : null,
    maximum: t.token_standard === 'v1' && t.maximum !== null ? BigInt(t.maximum) : null,
    is_deleted_v2: t.token_standard === 'v2' ? t.is_burned : null,
    last_transaction_version: BigInt(t.last_transaction_version),
    last_transaction_timestamp: t.minted_at.slice(0, 19),
    token_properties: t.properties === null ? null : (JSON.parse(t.properties) as Record<string, string>),
    current_collection: collections.get(t.collection_id) ?? null,
  }));
}

type Truth = boolean | null;
const and = (values: Truth[]): Truth =>
  values.includes(false) ? false : values.includes(null) ? null : true;
const or = (values: Truth[]): Truth => (values.includes(true) ? true : values.includes(null) ? null : false);

function compare(a: Value, b: Value): number {
  if (typeof a === 'bigint' && typeof b === 'bigint') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
}

const likeRegex = (pattern: string, flags: string) =>
  new RegExp(
    `^${pattern
      .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
      .replace(/%/g, '.*')
      .replace(/_/g, '.')}$`,
    `s${flags}`,
  );

const inputValue = (kind: Kind, value: unknown): Value =>
  kind === 'number' ? BigInt(value as string) : (value as Value);

function evalOps(kind: Kind, value: Value, ops: Record<string, unknown>): Truth {
  const parts: Truth[] = [];
  for (const [op, raw] of Object.entries(ops)) {
    if (op === '_is_null') {
      parts.push((value === null) === raw);
      continue;
    }
    if (value === null) {
      parts.push(null);
      continue;
    }
    if (op === '_in' || op === '_nin') {
      const found = (raw as unknown[]).some((item) => compare(value, inputValue(kind, item)) === 0);
      parts.push(op === '_in' ? found : !found);
    } else if (op === '_contains') {
      const want = raw as Record<string, string>;
      const have = value as Record<string, string>;
      parts.push(Object.entries(want).every(([k, v]) => have[k] === v));
    } else if (op.endsWith('like')) {
      const matched = likeRegex(raw as string, op.includes('ilike') ? 'i' : '').test(value as string);
      parts.push(op.startsWith('_n') ? !matched : matched);
    } else {
      const c = compare(value, inputValue(kind, raw));
      const outcome = { _eq: c === 0, _neq: c !== 0, _gt: c > 0, _gte: c >= 0, _lt: c < 0, _lte: c <= 0 }[op];
      parts.push(outcome as boolean);
    }
  }
  return and(parts);
}

function evalWhere(
  row: Record<string, Value> | Row,
  where: Record<string, unknown>,
  columns: Record<string, Kind>,
): Truth {
  const parts: Truth[] = [];
  for (const [key, value] of Object.entries(where)) {
    const list = value as Record<string, unknown>[];
    if (key === '_and') parts.push(and(list.map((w) => evalWhere(row, w, columns))));
    else if (key === '_or') parts.push(or(list.map((w) => evalWhere(row, w, columns))));
    else if (key === '_not') {
      const inner = evalWhere(row, value as Record<string, unknown>, columns);
      parts.push(inner === null ? null : !inner);
    } else if (key === 'current_collection') {
      const related = (row as Row).current_collection;
      // EXISTS: a related row for which the condition is true.
      parts.push(
        related !== null && evalWhere(related, value as Record<string, unknown>, COLLECTION_COLUMNS) === true,
      );
    } else {
      parts.push(
        evalOps(columns[key] as Kind, (row[key] as Value) ?? null, value as Record<string, unknown>),
      );
    }
  }
  return and(parts);
}

function sampleValue(rows: Row[], column: string, kind: Kind, related: boolean): unknown {
  const values = rows
    .map((r) => (related ? r.current_collection?.[column] : r[column]))
    .filter((v) => v !== null && v !== undefined);
  const v = pick(values.length > 0 ? values : ['x']);
  if (kind === 'number') return random() < 0.5 ? String(v) : Number(v);
  return v;
}

function genOps(rows: Row[], column: string, kind: Kind, related: boolean): Record<string, unknown> {
  const ops: Record<string, unknown> = {};
  const count = 1 + Math.floor(random() * 2);
  for (let i = 0; i < count; i += 1) {
    const choices =
      kind === 'json'
        ? ['_contains', '_is_null']
        : kind === 'bool'
          ? ['_eq', '_neq', '_is_null', '_in']
          : kind === 'text'
            ? ['_eq', '_neq', '_gt', '_lte', '_in', '_nin', '_is_null', '_like', '_ilike', '_nlike']
            : ['_eq', '_neq', '_gt', '_gte', '_lt', '_lte', '_in', '_nin', '_is_null'];
    const op = pick(choices);
    const sample = () => sampleValue(rows, column, kind, related);
    if (op === '_is_null') ops[op] = random() < 0.5;
    else if (op === '_in' || op === '_nin') ops[op] = [sample(), sample()];
    else if (op === '_contains') ops[op] = random() < 0.5 ? { color: pick(['red', 'blue']) } : {};
    else if (op.endsWith('like')) {
      const word = String(sample());
      const pattern = pick([`${word.slice(0, 2)}%`, `%${word.slice(-2)}`, `${word.slice(0, 1)}_%`, '%']);
      ops[op] = op === '_ilike' ? pattern.toUpperCase() : pattern;
    } else ops[op] = sample();
  }
  return ops;
}

function genWhere(rows: Row[], depth: number, related = false): Record<string, unknown> {
  const columns = related ? COLLECTION_COLUMNS : TOKEN_COLUMNS;
  const where: Record<string, unknown> = {};
  const count = 1 + Math.floor(random() * 2);
  for (let i = 0; i < count; i += 1) {
    const r = random();
    if (depth < 2 && r < 0.15)
      where['_and'] = [genWhere(rows, depth + 1, related), genWhere(rows, depth + 1, related)];
    else if (depth < 2 && r < 0.3)
      where['_or'] = [genWhere(rows, depth + 1, related), genWhere(rows, depth + 1, related)];
    else if (depth < 2 && r < 0.4) where['_not'] = genWhere(rows, depth + 1, related);
    else if (!related && depth < 2 && r < 0.55) where['current_collection'] = genWhere(rows, depth + 1, true);
    else {
      const column = pick(Object.keys(columns));
      where[column] = genOps(rows, column, columns[column] as Kind, related);
    }
  }
  return where;
}

const DIRECTIONS = [
  'asc',
  'desc',
  'asc_nulls_first',
  'asc_nulls_last',
  'desc_nulls_first',
  'desc_nulls_last',
];
const SORTABLE = Object.keys(TOKEN_COLUMNS).filter((c) => TOKEN_COLUMNS[c] !== 'json');

function genOrder(): Record<string, unknown>[] {
  const terms = Array.from({ length: 1 + Math.floor(random() * 2) }, () =>
    random() < 0.3
      ? { current_collection: { [pick(Object.keys(COLLECTION_COLUMNS))]: pick(DIRECTIONS) } }
      : { [pick(SORTABLE)]: pick(DIRECTIONS) },
  );
  // A total order, so that both sides agree on ties.
  return [...terms, { token_data_id: 'asc' }];
}

function sortKey(row: Row, term: Record<string, unknown>): { value: Value; direction: string } {
  const [key, direction] = Object.entries(term)[0] as [string, unknown];
  if (key === 'current_collection') {
    const [inner, innerDirection] = Object.entries(direction as Record<string, string>)[0] as [
      string,
      string,
    ];
    return { value: row.current_collection?.[inner] ?? null, direction: innerDirection };
  }
  return { value: (row[key] as Value) ?? null, direction: direction as string };
}

function orderRows(rows: Row[], order: Record<string, unknown>[]): Row[] {
  return [...rows].sort((a, b) => {
    for (const term of order) {
      const x = sortKey(a, term);
      const y = sortKey(b, term);
      const desc = x.direction.startsWith('desc');
      const nullsFirst = x.direction.endsWith('nulls_first') || x.direction === 'desc';
      if (x.value === null || y.value === null) {
        if (x.value === y.value) continue;
        return (x.value === null) === nullsFirst ? -1 : 1;
      }
      const c = compare(x.value, y.value);
      if (c !== 0) return desc ? -c : c;
    }
    return 0;
  });
}

describe('the Hasura expression language of /v1/graphql against a plain reference', () => {
  let test: TestDatabase;
  let app: FastifyInstance;
  let key: string;
  let rows: Row[];

  beforeAll(async () => {
    test = await createTestDatabase();
    const data = generate();
    await test.db.insertInto('collections').values(data.collections).execute();
    await test.db.insertInto('tokens').values(data.tokens).execute();
    rows = referenceRows(data);
    app = await buildApp({ db: test.db, network: 'mainnet' });
    key = (await createApiKey(test.db, { name: 'expressions' })).key;
  });
  afterAll(async () => {
    await app?.close();
    await test?.drop();
  });

  const QUERY = `query q($w: current_token_datas_v2_bool_exp, $o: [current_token_datas_v2_order_by!], $l: Int, $off: Int,
      $d: [current_token_datas_v2_select_column!]) {
    current_token_datas_v2(where: $w, order_by: $o, limit: $l, offset: $off, distinct_on: $d) { token_data_id }
    current_token_datas_v2_aggregate(where: $w) { aggregate { count } }
  }`;

  it('answers 300 generated queries as the reference does', async () => {
    let nonEmpty = 0;
    for (let i = 0; i < 300; i += 1) {
      const where = genWhere(rows, 0);
      const order = genOrder();
      const limit = random() < 0.5 ? 1 + Math.floor(random() * 10) : null;
      const offset = random() < 0.3 ? Math.floor(random() * 5) : null;
      const distinct = random() < 0.15 ? ['collection_id'] : null;
      const matching = rows.filter((r) => evalWhere(r, where, TOKEN_COLUMNS) === true);
      let expected = orderRows(matching, distinct ? [{ collection_id: 'asc' }, ...order] : order);
      if (distinct)
        expected = expected.filter((r, n) => n === 0 || expected[n - 1]?.collection_id !== r.collection_id);
      expected = expected.slice(offset ?? 0, limit === null ? undefined : (offset ?? 0) + limit);
      const res = await app.inject({
        method: 'POST',
        url: '/mainnet/v1/graphql',
        headers: { 'x-api-key': key },
        payload: { query: QUERY, variables: { w: where, o: order, l: limit, off: offset, d: distinct } },
      });
      const body = res.json() as {
        data?: {
          current_token_datas_v2: { token_data_id: string }[];
          current_token_datas_v2_aggregate: { aggregate: { count: number } };
        };
      };
      const context = JSON.stringify({
        where,
        order,
        limit,
        offset,
        distinct,
        errors: (body as { errors?: unknown }).errors,
      });
      expect(res.statusCode, context).toBe(200);
      expect(
        body.data?.current_token_datas_v2.map((r) => r.token_data_id),
        context,
      ).toEqual(expected.map((r) => r.token_data_id));
      expect(body.data?.current_token_datas_v2_aggregate.aggregate.count, context).toBe(matching.length);
      if (matching.length > 0 && matching.length < rows.length) nonEmpty += 1;
    }
    // The generator must exercise selective filters, not only all-or-nothing ones.
    expect(nonEmpty).toBeGreaterThan(100);
  });
});
