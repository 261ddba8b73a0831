import { parse } from 'csv-parse/sync';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addExportRows,
  cursorOfRow,
  EXPORT_DATASETS,
  type ExportRequest,
  exportRowsUsed,
  openExport,
  parseTrailer,
} from '../src/export';
import { createTestDatabase, type TestDatabase } from '../src/testing';

const MILLION = 1_000_000;
// Every tenth version holds 3 events, so that versions repeat and the key's second part matters.
const SALES_SQL = `
  INSERT INTO marketplace_activities (transaction_version, event_index, kind, marketplace, contract_address,
    raw_event_type, token_data_id, token_standard, collection_id, collection_name, creator_address, token_name,
    price, token_amount, coin_type, seller, buyer, listing_id, transaction_timestamp)
  SELECT g / 3 + 1, g % 3, 'fill_listing', 'mdq', '0x1', '0x1::m::E',
         '0x' || lpad(to_hex(g % 5000), 64, '0'), 'v2', '0xc' || (g % 7), 'Col "' || (g % 7) || '", \\ n',
         '0xcafe', 'Token #' || g, (g::numeric * 1000003) % 18446744073709551615, 1,
         NULL, '0x' || lpad(to_hex(g % 97), 64, '0'), '0x' || lpad(to_hex(g % 89 + 1000), 64, '0'),
         'l' || g, timestamptz '2026-01-01' + g * interval '1 second'
    FROM generate_series(0, $N - 1) g`;

async function collect(database: TestDatabase, request: ExportRequest): Promise<string> {
  const { stream } = await openExport(database.db, request);
  const parts: Buffer[] = [];
  for await (const chunk of stream) parts.push(chunk as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

function ndjsonRows(text: string): {
  rows: Record<string, unknown>[];
  trailer: ReturnType<typeof parseTrailer>;
} {
  const lines = text.split('\n').filter((l) => l !== '');
  const trailer = parseTrailer(lines[lines.length - 1] ?? '');
  return { rows: lines.slice(0, trailer ? -1 : undefined).map((l) => JSON.parse(l)), trailer };
}

describe('bulk export (COPY TO STDOUT)', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase();
    // A throwaway database: without the API's secondary indexes the million-row insert takes a
    // fraction of the time, and the export reads in primary-key order anyway.
    for (const index of ['token', 'collection', 'seller', 'buyer', 'offer', 'fills', 'collection_fills']) {
      await sql.raw(`DROP INDEX IF EXISTS market_activities_${index}`).execute(database.db);
    }
    await sql.raw(SALES_SQL.replace('$N', String(MILLION))).execute(database.db);
    await sql`ANALYZE marketplace_activities`.execute(database.db);
  }, 240_000);
  afterAll(async () => {
    await database?.drop();
  });

  it('streams 1,000,000 rows with flat memory', async () => {
    global.gc?.();
    const base = process.memoryUsage().rss;
    let peak = base;
    let bytes = 0;
    let lines = 0;
    let last = '';
    const { stream, done } = await openExport(database.db, {
      dataset: 'sales',
      format: 'ndjson',
      limit: null,
    });
    for await (const chunk of stream) {
      const buffer = chunk as Buffer;
      bytes += buffer.length;
      for (let at = buffer.indexOf(10); at !== -1; at = buffer.indexOf(10, at + 1)) lines++;
      last = (last + buffer.toString('utf8')).slice(-400);
      // Sample every ~8 MB: the consumer is slow compared with the reads, so COPY must pause.
      if (bytes % (8 << 20) < buffer.length) peak = Math.max(peak, process.memoryUsage().rss);
    }
    const trailer = parseTrailer(last.trimEnd().split('\n').pop() ?? '');
    expect(trailer).toEqual({ dataset: 'sales', rows: MILLION, complete: true, next: null });
    expect(lines).toBe(MILLION + 1);
    expect((await done).rows).toBe(MILLION);
    // The export is far larger than the bound: holding it (or a good part of it) would fail this.
    expect(bytes).toBeGreaterThan(400 << 20);
    expect(peak - base, `rss grew by ${((peak - base) / 2 ** 20).toFixed(0)} MiB`).toBeLessThan(160 << 20);
  }, 300_000);

  it('writes the API representation: u64 as strings, ISO times, escaped text', async () => {
    const text = await collect(database, {
      dataset: 'sales',
      format: 'ndjson',
      limit: 2,
      fromVersion: 3,
    });
    const { rows, trailer } = ndjsonRows(text);
    expect(rows.map((r) => [r['version'], r['eventIndex']])).toEqual([
      [3, 0],
      [3, 1],
    ]);
    const g = 6; // version 3, event 0 is g = 6
    expect(rows[0]).toMatchObject({
      kind: 'fill_listing',
      price: String((BigInt(g) * 1000003n) % 18446744073709551615n),
      quantity: '1',
      collection: `Col "${g % 7}", \\ n`,
      timestamp: new Date(Date.parse('2026-01-01T00:00:00Z') + g * 1000).toISOString(),
      coinType: null,
    });
    expect(Object.keys(rows[0] ?? {})).toEqual(EXPORT_DATASETS.sales.columns.map((c) => c.name));
    expect(trailer).toMatchObject({ rows: 2, complete: false });
  });

  it('CSV has the camelCase header and the same values as NDJSON', async () => {
    const filter = { dataset: 'sales', fromVersion: 100, toVersion: 140 } as const;
    const csv = await collect(database, { ...filter, format: 'csv', limit: null });
    const ndjson = ndjsonRows(await collect(database, { ...filter, format: 'ndjson', limit: null }));
    const lines = csv.trimEnd().split('\n');
    const trailer = parseTrailer(lines.pop() ?? '');
    expect(trailer).toMatchObject({ rows: 123, complete: true });
    const records = parse(lines.join('\n'), { columns: true }) as Record<string, string>[];
    expect(Object.keys(records[0] ?? {})).toEqual(EXPORT_DATASETS.sales.columns.map((c) => c.name));
    const asText = ndjson.rows.map((r) =>
      // CSV writes JSON-typed fields (the wash-trade flags) as their JSON text.
      Object.fromEntries(
        Object.entries(r).map(([k, v]) => [
          k,
          v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v),
        ]),
      ),
    );
    expect(records).toEqual(asText);
  });

  it('resumes after a limit or a cut-off without a gap or a duplicate', async () => {
    const filter = { dataset: 'sales', fromVersion: 1000, toVersion: 2999 } as const;
    const whole = ndjsonRows(await collect(database, { ...filter, format: 'ndjson', limit: null })).rows;
    expect(whole).toHaveLength(6000);

    // Parts of 701 rows, each continuing from the previous trailer's `next`.
    const parts: Record<string, unknown>[] = [];
    let after: string | undefined;
    for (let i = 0; i < 20; i++) {
      const { rows, trailer } = ndjsonRows(
        await collect(database, { ...filter, format: 'ndjson', limit: 701, after }),
      );
      parts.push(...rows);
      if (trailer?.complete) break;
      after = trailer?.next ?? undefined;
    }
    expect(parts).toEqual(whole);

    // A download cut at an arbitrary row: the last row it holds is where it goes on.
    const cut = whole.slice(0, 2345);
    const rest = ndjsonRows(
      await collect(database, {
        ...filter,
        format: 'ndjson',
        limit: null,
        after: cursorOfRow('sales', cut[cut.length - 1] ?? {}),
      }),
    ).rows;
    expect([...cut, ...rest]).toEqual(whole);
  });

  it('reads one snapshot: rows committed after the export began are not in it', async () => {
    const filter = { dataset: 'sales', fromVersion: 5_000_000, format: 'ndjson', limit: null } as const;
    await sql`INSERT INTO marketplace_activities (transaction_version, event_index, kind, marketplace,
                contract_address, raw_event_type, price, token_amount, transaction_timestamp)
              VALUES (5000000, 0, 'fill_listing', 'mdq', '0x1', 'e', 1, 1, now())`.execute(database.db);
    const { stream } = await openExport(database.db, filter);
    const iterator = stream[Symbol.asyncIterator]();
    const first = await iterator.next();
    await sql`INSERT INTO marketplace_activities (transaction_version, event_index, kind, marketplace,
                contract_address, raw_event_type, price, token_amount, transaction_timestamp)
              VALUES (5000001, 0, 'fill_listing', 'mdq', '0x1', 'e', 1, 1, now())`.execute(database.db);
    let text = Buffer.from(first.value as Buffer).toString('utf8');
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
      text += (next.value as Buffer).toString('utf8');
    }
    const { rows, trailer } = ndjsonRows(text);
    expect(rows.map((r) => r['version'])).toEqual([5_000_000]);
    expect(trailer).toMatchObject({ rows: 1, complete: true });
    const after = ndjsonRows(await collect(database, filter)).rows;
    expect(after.map((r) => r['version'])).toEqual([5_000_000, 5_000_001]);
  });

  it('filters by collection and wallet, and rejects a forged cursor before connecting', async () => {
    const wallet = `0x${(5).toString(16).padStart(64, '0')}`;
    const { rows } = ndjsonRows(
      await collect(database, {
        dataset: 'sales',
        format: 'ndjson',
        limit: null,
        collectionIds: ['0xc3'],
        wallet,
        toVersion: 30_000,
      }),
    );
    const { rows: expected } = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM marketplace_activities
       WHERE collection_id = '0xc3' AND (seller = ${wallet} OR buyer = ${wallet})
         AND transaction_version <= 30000`.execute(database.db);
    expect(rows.length).toBe(expected[0]?.n);
    expect(rows.length).toBeGreaterThan(0);
    expect(
      rows.every((r) => r['collectionId'] === '0xc3' && (r['seller'] === wallet || r['buyer'] === wallet)),
    ).toBe(true);
    await expect(
      openExport(database.db, { dataset: 'sales', format: 'csv', limit: null, after: 'bm90IGEgY3Vyc29y' }),
    ).rejects.toThrow(/cursor/);
  });

  it('counts exported rows per key and day', async () => {
    const day = new Date('2026-05-01T12:00:00Z');
    await Promise.all([
      addExportRows(database.db, 'k1', 400, day),
      addExportRows(database.db, 'k1', 300, day),
    ]);
    await addExportRows(database.db, 'k2', 5, day);
    expect(await exportRowsUsed(database.db, 'k1', day)).toBe(700);
    expect(await exportRowsUsed(database.db, 'k1', new Date('2026-05-02T00:00:00Z'))).toBe(0);
  });

  it('charges the rows written before the trailer, and the lines sent when cut off', async () => {
    const charged: number[] = [];
    const filter = { dataset: 'sales', format: 'ndjson', fromVersion: 10, toVersion: 19 } as const;
    const text = await collect(database, {
      ...filter,
      limit: null,
      onFinish: async (rows) => {
        charged.push(rows);
      },
    });
    expect(charged).toEqual([30]);
    expect(
      text.endsWith(
        `${JSON.stringify({ $export: { dataset: 'sales', rows: 30, complete: true, next: null } })}\n`,
      ),
    ).toBe(true);

    let cutAt = -1;
    const { stream, done } = await openExport(database.db, {
      dataset: 'sales',
      format: 'ndjson',
      limit: null,
      onFinish: async (rows) => {
        cutAt = rows;
      },
    });
    for await (const _ of stream) break;
    expect((await done).summary).toBeNull();
    expect(cutAt).toBeGreaterThan(0);
    expect(cutAt).toBeLessThan(MILLION);
  });
});
