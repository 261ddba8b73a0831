import { Nullable, StringEnum } from '@mdq/contracts';
import Fastify from 'fastify';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { registerResponseSchemaCheck, validatingKeywordIn } from '../src/plugins/response-schemas';

describe('response schemas serialize without validators', () => {
  it('finds anyOf, oneOf and if wherever they are, and nothing in their replacements', () => {
    expect(validatingKeywordIn(Type.Object({ a: Type.Union([Type.String(), Type.Null()]) }))).toBe(
      '/properties/a/anyOf',
    );
    expect(validatingKeywordIn({ items: [{ type: 'string' }, { oneOf: [] }] })).toBe('/items/1/oneOf');
    expect(validatingKeywordIn({ if: {}, else: {} })).toBe('/if');
    const clean = Type.Object({
      name: Nullable(Type.String()),
      listing: Nullable(Type.Object({ price: Type.String(), at: Nullable(Type.Integer()) })),
      status: StringEnum(['ok', 'error']),
      metrics: Type.Record(Type.String(), Nullable(Type.Number())),
    });
    expect(validatingKeywordIn(clean)).toBeUndefined();
  });

  it('keeps a union where a type with null would not say the same (a literal)', () => {
    expect(validatingKeywordIn(Nullable(Type.Literal('x')))).toBe('/anyOf');
  });

  it('refuses a route whose response schema would validate, naming the route and the place', async () => {
    const app = Fastify();
    registerResponseSchemaCheck(app);
    app.get('/fine', { schema: { response: { 200: Type.Object({ a: Nullable(Type.String()) }) } } }, () => ({
      a: null,
    }));
    expect(() =>
      app.get(
        '/union',
        {
          schema: {
            response: { 200: Type.Object({ s: Type.Union([Type.Literal('a'), Type.Literal('b')]) }) },
          },
        },
        () => ({ s: 'a' }),
      ),
    ).toThrow(/GET \/union: the 200 response schema has \/properties\/s\/anyOf/);
    await app.close();
  });

  it('serializes nulls, values, nested objects and enums as the unions did', async () => {
    const Row = Type.Object({
      name: Nullable(Type.String()),
      count: Nullable(Type.Integer()),
      listing: Nullable(Type.Object({ price: Type.String(), seller: Nullable(Type.String()) })),
      status: StringEnum(['ok', 'error']),
      metrics: Type.Record(
        Type.String(),
        Type.Unsafe<string | number | null>({ type: ['string', 'number', 'null'] }),
      ),
    });
    const rows = [
      { name: null, count: null, listing: null, status: 'ok', metrics: { a: null, b: 2, c: 'x' } },
      { name: 'n', count: 3, listing: { price: '10', seller: null }, status: 'error', metrics: {} },
      {
        name: 'm',
        count: 0,
        listing: { price: '0', seller: '0x1', extra: 'dropped' },
        status: 'ok',
        metrics: {},
      },
    ];
    const app = Fastify();
    registerResponseSchemaCheck(app);
    app.get('/rows', { schema: { response: { 200: Type.Array(Row) } } }, () => rows);
    const response = await app.inject({ method: 'GET', url: '/rows' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual([
      rows[0],
      rows[1],
      { name: 'm', count: 0, listing: { price: '0', seller: '0x1' }, status: 'ok', metrics: {} },
    ]);
    await app.close();
  });
});
