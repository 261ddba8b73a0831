import copyStreams from 'pg-copy-streams';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { poolOf } from '../src/database';
import type { ExportColumn } from '../src/export/export-column';
import { CopyTextToNdjson } from '../src/export/ndjson-lines';
import { createTestDatabase, type TestDatabase } from '../src/testing';

// Text that COPY escapes (backslash, tab, newline, CR, \b \f \v), that JSON escapes (quote,
// other control characters), COPY's own null marker as text, non-ASCII and 4-byte UTF-8.
const NASTY = [
  'plain',
  '',
  'quote " and backslash \\ and \\N',
  '\\N',
  'tab\there, newline\nthere, cr\r, bell\u0007, nul-free \u0001\u001f',
  'backspace\b formfeed\f vtab\u000b',
  'émoji 🎨 and 中文 and \u2028',
  '{"looks": "like json"}',
];

const COLUMNS: ExportColumn[] = [
  { name: 'id', expr: 'id', type: 'int' },
  { name: 'name', expr: 'name', type: 'text' },
  { name: 'amount', expr: 'amount', type: 'u64' },
  { name: 'isBurned', expr: 'flag', type: 'bool' },
  { name: 'properties', expr: 'props', type: 'json' },
];

const ROWS_SQL = `
  SELECT g AS id, CASE WHEN g % 9 = 8 THEN NULL ELSE (ARRAY[$1])[g % 9 + 1] END AS name,
         CASE WHEN g % 4 = 0 THEN NULL ELSE (g * 18446744073709551::numeric) END AS amount,
         CASE WHEN g % 3 = 0 THEN NULL ELSE g % 2 = 0 END AS flag,
         CASE WHEN g % 5 = 0 THEN NULL ELSE jsonb_build_object('name', (ARRAY[$1])[g % 8 + 1], 'n', g) END AS props
    FROM generate_series(0, 199) g`;

function literalArray(values: string[]): string {
  return values.map((v) => `E'${v.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`).join(', ');
}

describe('COPY text rows as NDJSON lines', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase({ migrate: false });
  });
  afterAll(async () => {
    await database?.drop();
  });

  it("writes what Postgres's to_json writes, for every byte COPY or JSON escapes", async () => {
    const rows = ROWS_SQL.replaceAll('$1', literalArray(NASTY));
    const values = `SELECT id, name, amount::text, flag::text, props::text FROM (${rows}) r ORDER BY id`;
    // The lines as Postgres builds them (the way exports were written before).
    const expected = `SELECT '{"id":' || id || ',"name":' || coalesce(to_json(name)::text, 'null')
        || ',"amount":' || coalesce(to_json(amount::text)::text, 'null')
        || ',"isBurned":' || coalesce(flag::text, 'null')
        || ',"properties":' || coalesce(props::text, 'null') || '}' AS line
      FROM (${rows}) r ORDER BY id`;
    const client = await poolOf(database.db).connect();
    try {
      const encoder = new CopyTextToNdjson(COLUMNS);
      const parts: Buffer[] = [];
      const copy = client.query(copyStreams.to(`COPY (${values}) TO STDOUT`));
      for await (const chunk of copy as AsyncIterable<Buffer>) {
        // Split each chunk at odd places so that rows and UTF-8 sequences straddle pushes.
        for (let at = 0; at < chunk.length; at += 7) parts.push(encoder.push(chunk.subarray(at, at + 7)));
      }
      encoder.end();
      const lines = Buffer.concat(parts).toString('utf8').split('\n');
      expect(lines.pop()).toBe('');
      const { rows: want } = await client.query<{ line: string }>(expected);
      expect(lines).toEqual(want.map((r) => r.line));

      const { rows: typed } = await client.query<Record<string, unknown>>(
        `SELECT id, name, amount::text AS amount, flag, props FROM (${rows}) r ORDER BY id`,
      );
      expect(lines.map((l) => JSON.parse(l))).toEqual(
        typed.map((r) => ({
          id: r['id'],
          name: r['name'],
          amount: r['amount'],
          isBurned: r['flag'],
          properties: r['props'],
        })),
      );
      expect(lines.some((l) => l.includes('\\u0007'))).toBe(true);
    } finally {
      client.release();
    }
  });

  it('escapes a special byte at every place in a word, and never mistakes UTF-8 bytes for one', async () => {
    // The encoder tests four bytes at a time: put each byte that needs a look at every offset of
    // the words around it, beside bytes that differ from it in one bit (0x80 set: UTF-8; or near it).
    const specials = ['"', '\\', '\t', '\n', '\r', '\b', '\f', '\u000b', '\u0001', '\u001f', '\\N'];
    // Characters whose UTF-8 bytes are 0xa2 (0x22 | 0x80), 0xdc, 0x89, 0x9f, 0x80, 4-byte ones, DEL…
    const lookalikes = [...'\u00a2\u00dc\u0109\u011f\u0080🎨\u007f !#[]\u2028'];
    const values = [''];
    for (const special of [...specials, ...lookalikes]) {
      for (let before = 0; before <= 8; before++) {
        for (const after of [0, 1, 3, 8]) {
          values.push(`${'abcdefgh'.slice(0, before)}${special}${'ijklmnop'.slice(0, after)}`);
        }
      }
    }
    values.push(specials.join(''), lookalikes.join(''), `${specials.join('x')}${lookalikes.join('yz')}`);
    const columns: ExportColumn[] = [
      { name: 'id', expr: 'id', type: 'int' },
      { name: 'text', expr: 'text', type: 'text' },
      { name: 'json', expr: 'json', type: 'json' },
      { name: 'last', expr: 'last', type: 'text' },
    ];
    const client = await poolOf(database.db).connect();
    try {
      await client.query('CREATE TEMP TABLE words (id int, text text)');
      await client.query('INSERT INTO words SELECT i, v FROM unnest($1::text[]) WITH ORDINALITY u(v, i)', [
        values,
      ]);
      const rows = `SELECT id, text, to_jsonb(text) AS json, CASE WHEN id % 2 = 0 THEN text END AS last FROM words`;
      const encoder = new CopyTextToNdjson(columns);
      const parts: Buffer[] = [];
      const copy = client.query(
        copyStreams.to(`COPY (SELECT id, text, json::text, last FROM (${rows}) r ORDER BY id) TO STDOUT`),
      );
      for await (const chunk of copy as AsyncIterable<Buffer>) parts.push(encoder.push(chunk));
      encoder.end();
      const lines = Buffer.concat(parts).toString('utf8').split('\n');
      expect(lines.pop()).toBe('');
      const { rows: want } = await client.query<{ line: string }>(
        `SELECT '{"id":' || id || ',"text":' || to_json(text)::text || ',"json":' || json::text
             || ',"last":' || coalesce(to_json(last)::text, 'null') || '}' AS line
           FROM (${rows}) r ORDER BY id`,
      );
      expect(want).toHaveLength(values.length);
      expect(lines).toEqual(want.map((r) => r.line));
      expect(lines.map((l) => JSON.parse(l).text)).toEqual(values);
    } finally {
      client.release();
    }
  });

  it('refuses output that ends inside a row or has the wrong number of fields', () => {
    const cut = new CopyTextToNdjson(COLUMNS);
    cut.push(Buffer.from('1\tx\t'));
    expect(() => cut.end()).toThrow(/inside a row/);
    expect(() => new CopyTextToNdjson(COLUMNS).push(Buffer.from('1\tx\n'))).toThrow(/fields/);
    expect(() => new CopyTextToNdjson(COLUMNS).push(Buffer.from('1\tx\t1\tt\t{}\textra\n'))).toThrow(
      /more than 5/,
    );
  });
});
