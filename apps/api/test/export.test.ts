import { gunzipSync } from 'node:zlib';
import { createApiKey } from '@mdq/db';
import { parseTrailer } from '@mdq/db/export';
import type { DevnetFacts } from '@mdq/devnet';
import { createIndexedDatabase, type IndexedDatabase } from '@mdq/indexer/testing';
import { parse } from 'csv-parse/sync';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/index';

type Row = Record<string, unknown>;

/*
 * Bulk export over an indexed devnet chain: every exported row must equal the same row read
 * through the paged API (the API's own field names and representation), in NDJSON and in CSV.
 */
describe('GET /api/export/:dataset', () => {
  let indexed: IndexedDatabase;
  let app: FastifyInstance;
  let key: string;
  let facts: DevnetFacts;
  const q = encodeURIComponent;

  const get = async (path: string) => {
    const res = await app.inject({ url: `/local/api${path}`, headers: { 'x-api-key': key } });
    expect(res.statusCode, `${path}: ${res.body}`).toBe(200);
    return res.json();
  };
  /** Every row of a paged API list. */
  const all = async (path: string): Promise<Row[]> => {
    const rows: Row[] = [];
    let body = await get(`${path}&limit=100`);
    rows.push(...body.data);
    while (body.pagination.hasMore) {
      body = await get(`${path}&limit=100&cursor=${body.pagination.nextCursor}`);
      rows.push(...body.data);
    }
    return rows;
  };
  /** An export in both formats; asserts they hold the same rows and that the trailer says complete. */
  const exported = async (path: string): Promise<Row[]> => {
    const res = await app.inject({ url: `/local/api/export/${path}`, headers: { 'x-api-key': key } });
    expect(res.statusCode, `${path}: ${res.body}`).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/x-ndjson/);
    const lines = res.body.trimEnd().split('\n');
    const trailer = parseTrailer(lines.pop() ?? '');
    const rows = lines.map((l) => JSON.parse(l) as Row);
    expect(trailer, path).toMatchObject({ rows: rows.length, complete: true, next: null });

    const csv = await app.inject({
      url: `/local/api/export/${path}&format=csv`,
      headers: { 'x-api-key': key },
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const csvLines = csv.body.trimEnd().split('\n');
    expect(parseTrailer(csvLines.pop() ?? '')).toEqual(trailer);
    const records = parse(csvLines.join('\n'), { columns: true }) as Record<string, string>[];
    // jsonb text spaces its JSON differently: compare JSON columns as values.
    const normalized = records.map((r, i) =>
      Object.fromEntries(
        Object.entries(r).map(([k, v]) => {
          const original = rows[i]?.[k];
          return [k, typeof original === 'object' && original !== null ? JSON.stringify(JSON.parse(v)) : v];
        }),
      ),
    );
    expect(normalized).toEqual(rows.map(asCsv));
    return rows;
  };
  /** Exported rows keyed by `id`, each cut to the API row's fields. */
  const compare = (api: Row[], exportRows: Row[], id: (r: Row) => string, label: string) => {
    expect(api.length, label).toBeGreaterThan(0);
    const byId = new Map(exportRows.map((r) => [id(r), r]));
    for (const row of api) {
      const found = byId.get(id(row));
      expect(found, `${label}: ${id(row)} not exported`).toBeDefined();
      // thumbnailUrl links this API's media route; an export carries the source URIs only.
      const { thumbnailUrl: _link, ...fields } = row;
      expect(pick(found ?? {}, Object.keys(fields)), label).toEqual(fields);
    }
  };

  beforeAll(async () => {
    indexed = await createIndexedDatabase({ seed: 11, preset: 'tiny', endTimeMs: Date.now() });
    facts = indexed.facts;
    app = await buildApp({ db: indexed.db, network: 'local' });
    key = (await createApiKey(indexed.db, { name: 'export' })).key;
  }, 240_000);
  afterAll(async () => {
    await app?.close();
    await indexed?.close();
  });

  it("tokens of each collection equal tokens-by-collection's", async () => {
    for (const c of facts.collections) {
      const api = await all(`/tokens-by-collection?creator=${c.creator}&collection=${q(c.name)}`);
      const rows = await exported(`tokens?creator=${c.creator}&collection=${q(c.name)}`);
      const byId = await exported(`tokens?collectionId=${c.collectionId}`);
      expect(byId).toEqual(rows);
      // The API lists live tokens; the export has burned ones too, flagged.
      expect(rows.filter((r) => r['isBurned'] === false)).toHaveLength(api.length);
      compare(api, rows, (r) => String(r['tokenId']), c.name);
    }
  });

  it("active listings of each collection equal listings-by-collection's", async () => {
    let seen = 0;
    for (const c of facts.collections) {
      const api = await all(`/market/listings-by-collection?creator=${c.creator}&collection=${q(c.name)}`);
      const rows = await exported(`listings?collectionId=${c.collectionId}`);
      const active = rows.filter((r) => r['status'] === 'active');
      expect(active, c.name).toHaveLength(api.length);
      if (api.length > 0) compare(api, active, (r) => `${r['marketplace']}/${r['listingId']}`, c.name);
      seen += api.length;
    }
    expect(seen).toBeGreaterThan(0);
  });

  it("a wallet's market activity and purchases equal user-activity's and user-history's", async () => {
    let seen = 0;
    for (const user of facts.users) {
      const activity = await all(`/market/user-activity?address=${user.address}`);
      const rows = await exported(`activities?wallet=${user.address}`);
      const market = rows.filter((r) => r['source'] === 'market');
      expect(market.length, user.address).toBe(activity.length);
      const eventId = (r: Row) => `${r['version']}/${r['eventIndex']}`;
      if (activity.length > 0) compare(activity, market, eventId, user.address);

      const purchases = await all(`/market/user-history?address=${user.address}`);
      const sales = (await exported(`sales?wallet=${user.address}`)).filter(
        (r) => r['buyer'] === user.address,
      );
      expect(sales.length, user.address).toBe(purchases.length);
      const shared = (r: Row) =>
        pick(r, [
          'version',
          'eventIndex',
          'kind',
          'tokenId',
          'seller',
          'buyer',
          'price',
          'quantity',
          'marketplace',
          'timestamp',
        ]);
      expect(sales.map(shared)).toEqual(purchases.map(shared).reverse());
      seen += activity.length + purchases.length;
    }
    expect(seen).toBeGreaterThan(0);
  });

  it('gzips when the client accepts it, and not otherwise', async () => {
    const url = '/local/api/export/activities?fromVersion=0';
    const plain = await app.inject({ url, headers: { 'x-api-key': key } });
    const zipped = await app.inject({
      url,
      headers: { 'x-api-key': key, 'accept-encoding': 'br, gzip;q=0.8' },
    });
    const refused = await app.inject({ url, headers: { 'x-api-key': key, 'accept-encoding': 'gzip;q=0' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.rawPayload.length).toBeLessThan(plain.rawPayload.length);
    expect(gunzipSync(zipped.rawPayload).toString('utf8')).toBe(plain.body);
    expect(plain.body.split('\n').length).toBeGreaterThan(100);
  });

  it('resumes from the trailer without a gap or a duplicate', async () => {
    const whole = await exported('activities?fromVersion=0');
    const parts: Row[] = [];
    let after = '';
    for (let i = 0; i < 1000; i++) {
      const res = await app.inject({
        url: `/local/api/export/activities?limit=37${after ? `&after=${after}` : ''}`,
        headers: { 'x-api-key': key },
      });
      const lines = res.body.trimEnd().split('\n');
      const trailer = parseTrailer(lines.pop() ?? '');
      parts.push(...lines.map((l) => JSON.parse(l) as Row));
      if (!trailer || trailer.complete) break;
      after = trailer.next ?? '';
    }
    expect(parts).toEqual(whole);
  });

  it('stops at the key quota with the place to resume, then answers 429', async () => {
    const small = await buildApp({ db: indexed.db, network: 'local', exportRowsPerDay: 5 });
    try {
      const own = (await createApiKey(indexed.db, { name: 'quota' })).key;
      const first = await small.inject({ url: '/local/api/export/tokens', headers: { 'x-api-key': own } });
      expect(first.statusCode).toBe(200);
      const lines = first.body.trimEnd().split('\n');
      expect(parseTrailer(lines.pop() ?? '')).toMatchObject({ rows: 5, complete: false });
      expect(lines).toHaveLength(5);
      const second = await small.inject({ url: '/local/api/export/tokens', headers: { 'x-api-key': own } });
      expect(second.statusCode).toBe(429);
      expect(second.json()).toMatchObject({ code: 'EXPORT_QUOTA_EXCEEDED' });
      expect(Number(second.headers['retry-after'])).toBeGreaterThan(0);
      // Another key has its own quota.
      const another = (await createApiKey(indexed.db, { name: 'quota-2' })).key;
      const other = await small.inject({
        url: '/local/api/export/tokens?limit=1',
        headers: { 'x-api-key': another },
      });
      expect(other.statusCode).toBe(200);
    } finally {
      await small.close();
    }
  });

  it.each([
    ['/export/bids', 400, /dataset/],
    ['/export/sales?format=xml', 400, /format/],
    ['/export/sales?fromVersion=10&toVersion=5', 400, /fromVersion/],
    ['/export/sales?after=bm9wZQ', 400, /cursor/],
    ['/export/sales?creator=0x1', 400, /collection/],
    ['/export/sales?wallet=nope', 400, /wallet/],
    ['/export/sales?creator=0x1&collection=missing', 404, /missing/],
    ['/export/sales?collectionId=0xc011', 404, /0x0+c011/],
    ['/export/tokens?collectionId=0xc011', 404, /0x0+c011/],
  ])('%s is a %i naming the problem', async (path, status, message) => {
    const res = await app.inject({ url: `/local/api${path}`, headers: { 'x-api-key': key } });
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json().message).toMatch(message);
    if (status === 404) expect(res.json().code).toBe('COLLECTION_NOT_FOUND');
  });
});

function pick(row: Row, keys: readonly string[]): Row {
  return Object.fromEntries(keys.map((k) => [k, row[k]]));
}

/** A row as CSV writes it: every value text, null empty, objects as JSON. */
function asCsv(row: Row): Record<string, string> {
  return Object.fromEntries(
    Object.entries(row).map(([k, v]) => [
      k,
      v === null ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v),
    ]),
  );
}
