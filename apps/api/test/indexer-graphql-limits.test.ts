import { createApiKey, sql } from '@mdq/db';
import { createTestDatabase, type TestDatabase } from '@mdq/db/testing';
import type { FastifyInstance } from 'fastify';
import { getIntrospectionQuery } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/index';

/*
 * /v1/graphql as a public endpoint: hostile queries answer GraphQL errors naming the cap (HTTP
 * 200, as Hasura) or a 4xx, never a 5xx; the key may come as a Bearer token; requests count in the
 * rate limit and in /metrics like every route; values come out as the official API types them.
 */
const ROW_CAP = 25;

describe('/v1/graphql limits and hostile input', () => {
  let test: TestDatabase;
  let app: FastifyInstance;
  let key: string;

  beforeAll(async () => {
    test = await createTestDatabase();
    // 20,000 tokens: enough that a query ordering every one by a per-row lookup outlasts 1 ms.
    await sql`INSERT INTO collections (collection_id, token_standard, creator_address, collection_name,
        max_supply, current_supply, created_at, created_version, last_transaction_version)
      VALUES (${`0x${'c'.repeat(64)}`}, 'v2', ${`0x${'a'.repeat(64)}`}, 'Big', 18446744073709551615, 3,
        '2024-04-04T22:38:56.926423Z', 7, 7)`.execute(test.db);
    await sql`INSERT INTO tokens (token_data_id, token_standard, collection_id, token_name, minted_at, last_transaction_version)
      SELECT '0x' || lpad(to_hex(n), 64, '0'), 'v2', ${`0x${'c'.repeat(64)}`}, 'Token #' || n,
        '2024-04-04T22:38:56.926423Z', n FROM generate_series(1, 20000) n`.execute(test.db);
    app = await buildApp({
      db: test.db,
      network: 'mainnet',
      graphqlLimits: { rowCap: ROW_CAP, maxCost: 500 },
    });
    key = (await createApiKey(test.db, { name: 'limits' })).key;
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await test?.drop();
  });

  const post = async (
    payload: unknown,
    headers: Record<string, string> = { authorization: `Bearer ${key}` },
  ) => {
    const res = await app.inject({
      method: 'POST',
      url: '/mainnet/v1/graphql',
      headers,
      payload: payload as object,
    });
    expect(res.statusCode, res.body.slice(0, 300)).toBeLessThan(500);
    return res;
  };
  /** The error codes of an answer (200 with `errors`). */
  const errorCodes = async (query: string, variables?: unknown) => {
    const res = await post({ query, variables });
    expect(res.statusCode).toBe(200);
    const body = res.json() as {
      errors?: { message: string; extensions: { code: string } }[];
      data?: unknown;
    };
    expect(body.data, res.body).toBeUndefined();
    return (body.errors ?? []).map((e) => e.extensions.code);
  };

  it('accepts the key as x-api-key or Bearer, refuses none, and serves GET with query and variables', async () => {
    const query = '{ current_collections_v2 { collection_name } }';
    expect((await post({ query }, { 'x-api-key': key })).statusCode).toBe(200);
    expect((await post({ query }, {})).statusCode).toBe(401);
    expect((await post({ query }, { authorization: 'Bearer not-a-key' })).statusCode).toBe(401);
    const get = await app.inject({
      url: `/mainnet/v1/graphql?query=${encodeURIComponent('query q($n: String) { current_collections_v2(where: {collection_name: {_eq: $n}}) { collection_name } }')}&variables=${encodeURIComponent('{"n":"Big"}')}`,
      headers: { authorization: `Bearer ${key}` },
    });
    expect(get.json()).toEqual({ data: { current_collections_v2: [{ collection_name: 'Big' }] } });
  });

  it('answers u64 digits exactly and timestamps as Hasura does (UTC, no zone)', async () => {
    const res = await post({
      query:
        '{ current_collections_v2 { max_supply current_supply last_transaction_version last_transaction_timestamp } }',
    });
    expect(res.body).toContain('"max_supply" : 18446744073709551615');
    const row = (res.json() as { data: { current_collections_v2: Record<string, unknown>[] } }).data
      .current_collections_v2[0];
    expect(row).toMatchObject({
      current_supply: 3,
      last_transaction_version: 7,
      last_transaction_timestamp: '2024-04-04T22:38:56.926423',
    });
  });

  it('serves the introspection GraphiQL and codegen send', async () => {
    const res = await post({ query: getIntrospectionQuery() });
    const body = res.json() as { data: { __schema: { types: { name: string }[] } } };
    const names = body.data.__schema.types.map((t) => t.name);
    for (const name of [
      'current_token_ownerships_v2',
      'current_token_datas_v2_bool_exp',
      'order_by',
      'numeric_comparison_exp',
    ]) {
      expect(names).toContain(name);
    }
  });

  it('refuses a limit over the row cap and caps a missing one', async () => {
    expect(await errorCodes('{ current_token_datas_v2(limit: 1000000) { token_name } }')).toEqual([
      'row-limit',
    ]);
    const all = await post({
      query: '{ current_token_datas_v2(where: {token_name: {_like: "%"}}) { token_name } }',
    });
    expect(
      (all.json() as { data: { current_token_datas_v2: unknown[] } }).data.current_token_datas_v2,
    ).toHaveLength(ROW_CAP);
  });

  it('refuses deep, wide and costly queries', async () => {
    const deepDocument = `{ current_collections_v2 ${'{ a '.repeat(3000)}${'} '.repeat(3000)} }`;
    expect((await errorCodes(deepDocument)).length).toBeGreaterThan(0);
    let nested: Record<string, unknown> = { token_name: { _eq: 'x' } };
    for (let i = 0; i < 200; i += 1) nested = { _not: nested };
    expect(
      await errorCodes(
        'query q($w: current_token_datas_v2_bool_exp) { current_token_datas_v2(where: $w) { token_name } }',
        {
          w: nested,
        },
      ),
    ).toEqual(['depth-limit']);
    const literal = `{ current_token_datas_v2(where: ${'{_not: '.repeat(20)}{token_name: {_eq: "x"}}${'}'.repeat(20)}) { token_name } }`;
    expect(await errorCodes(literal)).toEqual(['validation-failed']);
    const wide = `{ current_token_datas_v2(limit: 1) { ${Array.from({ length: 60 }, (_, i) => `f${i}: token_name`).join(' ')} } }`;
    expect(await errorCodes(wide)).toEqual(['too-many-fields']);
    const costly = `{ ${Array.from({ length: 15 }, (_, i) => `r${i}: current_token_datas_v2(limit: ${ROW_CAP}) { current_collection { collection_name } }`).join(' ')} }`;
    expect(await errorCodes(costly)).toEqual(['cost-limit']);
  });

  it('answers unknown fields, wrong types and null comparands as GraphQL errors', async () => {
    expect(await errorCodes('{ current_token_datas_v2 { no_such_field } }')).toEqual(['validation-failed']);
    expect(await errorCodes('{ coin_activities { amount } }')).toEqual(['validation-failed']);
    expect(await errorCodes('{ current_token_datas_v2(limit: "ten") { token_name } }')).toEqual([
      'validation-failed',
    ]);
    expect(
      await errorCodes('{ current_token_datas_v2(where: {supply: {_gt: "abc"}}) { token_name } }'),
    ).toEqual(['validation-failed']);
    expect(
      await errorCodes(
        '{ current_token_datas_v2(where: {last_transaction_timestamp: {_gt: "yesterday"}}) { token_name } }',
      ),
    ).toEqual(['validation-failed']);
    expect(
      await errorCodes('{ current_token_datas_v2(where: {token_name: {_eq: null}}) { token_name } }'),
    ).toEqual(['validation-failed']);
    expect(await errorCodes('mutation { x }')).toEqual(['validation-failed']);
    expect(await errorCodes('{ current_token_datas_v2 { token_name ')).toEqual(['parse-failed']);
  });

  it('cancels a statement past the timeout with a GraphQL error', async () => {
    // Ordering 20,000 tokens by a per-row lookup cannot finish within 1 ms.
    const strict = await buildApp({
      db: test.db,
      network: 'mainnet',
      graphqlLimits: { statementTimeoutMs: 1 },
    });
    try {
      // Asked twice: a timeout is no answer of the data, so the cache does not keep it.
      for (const _ of [1, 2]) {
        const res = await strict.inject({
          method: 'POST',
          url: '/mainnet/v1/graphql',
          headers: { authorization: `Bearer ${key}` },
          payload: {
            query:
              '{ current_token_datas_v2(order_by: {last_transaction_timestamp: desc}, limit: 5) { token_name } }',
          },
        });
        expect(res.statusCode).toBe(200);
        expect(res.headers['x-mdq-cache']).toBe('miss');
        expect(res.json()).toEqual({
          errors: [
            {
              message: 'the query ran past the statement timeout of 1 ms',
              extensions: { code: 'statement-timeout', path: '$' },
            },
          ],
        });
      }
    } finally {
      await strict.close();
    }
  });

  it('answers malformed requests and a 10 MB body with a 4xx', async () => {
    expect((await post({ nothing: true })).statusCode).toBe(400);
    expect((await post({ query: '{ processor_status { processor } }', variables: [1] })).statusCode).toBe(
      400,
    );
    const huge = await post({
      query: `{ current_collections_v2 { collection_name } } #${'x'.repeat(10 * 1024 * 1024)}`,
    });
    expect(huge.statusCode).toBe(413);
  });

  it('counts in /metrics and in the rate limit like every route', async () => {
    const metrics = await app.inject({ url: '/metrics' });
    expect(metrics.body).toMatch(/mdq_http_requests_total\{[^}]*route="\/mainnet\/v1\/graphql"/);
    const limited = await buildApp({ db: test.db, network: 'mainnet', rateLimit: { perMinute: 2 } });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i += 1) {
        const res = await limited.inject({
          method: 'POST',
          url: '/mainnet/v1/graphql',
          headers: { authorization: `Bearer ${key}` },
          payload: { query: '{ processor_status { processor } }' },
        });
        statuses.push(res.statusCode);
      }
      expect(statuses).toEqual([200, 200, 429]);
    } finally {
      await limited.close();
    }
  });
});
