import { AnnouncedChanges, sql } from '@mdq/db';
import { createTestDatabase, type TestDatabase } from '@mdq/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReadStateSource } from '../src/plugins/freshness';
import { scopedTables } from '../src/plugins/read-cache-config';
import { cachedRoutes } from '../src/plugins/response-cache';
import { CACHED, COLLECTION, CREATOR, seedCachedRoutes, TOKEN } from './support/cached-routes';
import { type ApiHarness, addr, createHarness } from './support/fixtures';

/** Polls `done` every 10 ms until it holds; fails after 10 s. */
async function until(what: string, done: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 1_000; i++) {
    if (await done()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`waited 10 s for ${what}`);
}

/** A signal that listens, whose announcements the test makes. */
class Announcer extends AnnouncedChanges {
  listening = true;
  /** The heartbeat (ReadVersionSignal.heardUpTo): none unless a test sets it. */
  heardUpTo = 0;
}

/** The indexer's next batch: the checkpoint at `version` and the rows of `tables` gone, in one transaction. */
async function commitBatch(db: TestDatabase['db'], version: number, ...tables: string[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('indexer_checkpoints').set({ last_version: version }).execute();
    for (const table of tables) await sql`DELETE FROM ${sql.table(table)}`.execute(trx);
  });
}

/**
 * A harness on the cached routes' dataset whose read state is pushed, listening. Readings are
 * trusted for a minute: here only a notification (or a client's min version) retires one.
 */
async function pushedHarness(): Promise<ApiHarness> {
  const h = await createHarness({ pushedMaxStaleMs: 60_000 });
  await seedCachedRoutes(h);
  await until('LISTEN', () => h.app.readState.pushing);
  return h;
}

describe('read state pushed by LISTEN (x-mdq-cache hits without a database round trip)', () => {
  let h: ApiHarness;
  /** The readings `h`'s own read-state source has sent (not the process's metric, which every app's moves). */
  const readings = () => h.app.readState.readings;

  beforeAll(async () => {
    h = await pushedHarness();
  });
  afterAll(() => h?.close());

  it('answers hits without reading the counters, and a change retires them once it is announced', async () => {
    const before = new Map<string, string>();
    for (const url of CACHED) before.set(url, (await h.get(url)).body);
    const sent = readings();
    for (const url of CACHED) {
      const again = await h.get(url);
      expect(again.headers['x-mdq-cache'], url).toBe('hit');
      expect(again.body, url).toBe(before.get(url));
    }
    expect(readings()).toBe(sent);

    // A committed batch is announced; until the API hears it an answer may be the old one (for
    // the notification's delivery time); once heard, every answer is the new one.
    await commitBatch(h.test.db, 4, 'token_ownerships', 'listings');
    const url = CACHED[0] as string; // /token-balances: the wallet's tokens, held or listed
    await until('the announcement', async () => (await h.get(url)).headers['x-mdq-indexed-version'] === '4');
    expect((await h.get(url)).body).not.toBe(before.get(url));
    // The block's version came with its announcement (the checkpoint row's notification): no reading.
    expect(readings()).toBe(sent);
  });

  it('x-mdq-min-version: a client that names the version it saw gets it at once, heard or not', async () => {
    // Asked right after the commit, with no wait for the notification: the header alone makes
    // the API read the counters (the write is committed, so the reading has it).
    const url = CACHED[5] as string; // /tokens-by-collection
    const old = await h.get(url);
    expect(old.statusCode).toBe(200);
    await commitBatch(h.test.db, 5, 'tokens');
    const fresh = await h.get(url, { headers: { 'x-mdq-min-version': '5' } });
    expect(fresh.statusCode).toBe(200);
    expect(fresh.headers['x-mdq-indexed-version']).toBe('5');
    expect(fresh.headers['x-mdq-cache']).toBe('miss');
    expect(fresh.body).not.toBe(old.body);
    // A version the index has not reached: the newest data there is, which the header says.
    const ahead = await h.get(url, { headers: { 'x-mdq-min-version': '99' } });
    expect(ahead.statusCode).toBe(200);
    expect(ahead.headers['x-mdq-indexed-version']).toBe('5');
  });

  it('a malformed x-mdq-min-version is a 400 naming the header', async () => {
    for (const value of ['abc', '-1', '1.5', '']) {
      const response = await h.get('/rankings/recent-added', { headers: { 'x-mdq-min-version': value } });
      expect(response.statusCode, value).toBe(400);
      expect(response.json(), value).toMatchObject({ code: 'INVALID_PARAMETER' });
      expect(response.body, value).toContain('x-mdq-min-version');
    }
  });

  it('a commit announces the tables it wrote: answers that read none of them stay hits without a reading', async () => {
    const readsDocuments = (url: string) => {
      const config = cachedRoutes(h.app).get(`/local/api${url.split('?')[0]}`);
      if (!config) throw new Error(`${url}: not a cached route`);
      return (config.tables as readonly string[]).includes('metadata_documents');
    };
    const touched = CACHED.filter(readsDocuments);
    const untouched = CACHED.filter((url) => !readsDocuments(url));
    // Both kinds are here: the token pages read their documents, the rankings and lists do not.
    expect(touched.length).toBeGreaterThan(0);
    expect(untouched.length).toBeGreaterThan(touched.length);
    for (const url of CACHED) await h.get(url);
    // The metadata crawler's kind of commit: one token document, no checkpoint.
    await sql`INSERT INTO metadata_documents (kind, subject_id, collection_id, uri, subject_version, status,
                fetched_at, refresh_at)
              VALUES ('token', ${TOKEN}, ${COLLECTION}, 'https://example.test/cat/1', 1, 'ok', now(), now())`.execute(
      h.test.db,
    );
    // Heard once the collection's token page runs again: its key counts the collection's documents.
    const probe = touched.find((url) => url.startsWith('/tokens-by-collection')) as string;
    await until('the announcement', async () => (await h.get(probe)).headers['x-mdq-cache'] === 'miss');
    // The others are hits with no reading: among them wallet and token pages whose scopes earlier
    // readings resolved, which a change to any table used to send back to the database.
    const sent = readings();
    for (const url of untouched) {
      const again = await h.get(url);
      expect(again.headers['x-mdq-cache'], url).toBe('hit');
    }
    expect(readings()).toBe(sent);
  });
});

describe('read state pushed by LISTEN: scopes', () => {
  let h: ApiHarness;
  /** The readings `h`'s own read-state source has sent (not the process's metric, which every app's moves). */
  const readings = () => h.app.readState.readings;

  beforeAll(async () => {
    // Its own dataset: the tests above delete rows the scoped pages need.
    h = await pushedHarness();
  });
  afterAll(() => h?.close());

  it('a commit announces the collections and wallets it wrote: other scopes stay resolved and their answers hits', async () => {
    // Dogs, and a sale in it between two wallets no cached page here is about.
    const dogs = addr(0x200);
    const [seller, buyer] = [addr(0xd1), addr(0xd2)];
    await h.fx.collection({ id: dogs, creator: CREATOR, name: 'Dogs' });
    // A block (the checkpoint moves) after it: once an answer carries that version, Dogs is heard too
    // (notifications arrive in commit order).
    const nextBlock = async () => {
      const { rows } = await sql<{
        v: string;
      }>`SELECT max(last_version)::text AS v FROM indexer_checkpoints`.execute(h.test.db);
      return Number(rows[0]?.v) + 1;
    };
    const heard = (version: number) =>
      until(
        `block ${version}`,
        async () =>
          (await h.get('/rankings/recent-added')).headers['x-mdq-indexed-version'] === String(version),
      );
    const created = await nextBlock();
    await h.test.db.updateTable('indexer_checkpoints').set({ last_version: created }).execute();
    await heard(created);
    const buyerHistory = `/market/user-history?address=${buyer}`;
    // The pages keyed on a scope's counters of every table the sale writes (marketplace_activities):
    // the sale is announced as their tables' change, and only its scopes' counters moved.
    const configOf = (url: string) => {
      const config = cachedRoutes(h.app).get(`/local/api${url.split('?')[0]}`);
      if (!config) throw new Error(`${url}: not a cached route`);
      return config;
    };
    const readsSales = (url: string) =>
      (configOf(url).tables as readonly string[]).includes('marketplace_activities');
    const keyedOnScope = (url: string) => {
      const config = configOf(url);
      const scoped: readonly string[] = scopedTables(config) ?? [];
      return scoped.length > 0 && (!readsSales(url) || scoped.includes('marketplace_activities'));
    };
    const pages = CACHED.filter(keyedOnScope);
    // Both kinds, and pages that read the sale's table on their scope's counters.
    expect(pages.filter((url) => url.includes('address=')).length).toBeGreaterThan(1);
    expect(
      pages.filter((url) => url.includes('collection=Cats') || url.includes('tokenId=')).length,
    ).toBeGreaterThan(3);
    expect(pages.filter(readsSales).length).toBeGreaterThan(2);
    // And the lootbox pages, keyed on their lootbox's counters (a sale writes none of their tables).
    expect(pages.filter((url) => url.includes('lootbox')).length).toBeGreaterThan(1);
    const before = new Map<string, string>();
    for (const url of [...pages, buyerHistory]) {
      const first = await h.get(url);
      expect(first.statusCode, url).toBe(200);
      before.set(url, first.body);
    }

    // The block: the sale, then the checkpoint.
    const version = await nextBlock();
    await h.fx.marketActivity({
      version,
      kind: 'fill_listing',
      tokenId: null,
      collectionId: dogs,
      collection: 'Dogs',
      creator: CREATOR,
      price: '5',
      seller,
      buyer,
    });
    await h.test.db.updateTable('indexer_checkpoints').set({ last_version: version }).execute();
    // Heard once an answer carries the block's version: that one reading is the block's.
    await heard(version);
    const sent = readings();
    for (const url of pages) {
      const again = await h.get(url);
      expect(again.headers['x-mdq-cache'], url).toBe('hit');
      expect(again.headers['x-mdq-indexed-version'], url).toBe(String(version));
      expect(again.body, url).toBe(before.get(url));
    }
    // No scope was read again: the block's one reading carried the version, the keys are the
    // announcements'.
    expect(readings()).toBe(sent);
    // The buyer's purchases did change: its key moved with the announcement of its bucket, and
    // the page runs again (still no reading: a wallet's bucket never needs resolving twice).
    const after = await h.get(buyerHistory);
    expect(after.headers['x-mdq-cache']).toBe('miss');
    expect(after.body).not.toBe(before.get(buyerHistory));
    expect(readings()).toBe(sent);
  });
});

describe('ReadStateSource with a signal', () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase();
    await test.db
      .insertInto('indexer_checkpoints')
      .values({ name: 'default', last_version: 1, last_timestamp: null })
      .execute();
  });
  afterAll(() => test?.drop());

  /** A signal whose heartbeat is heard: every commit before now has been (unless a test says otherwise). */
  const heard = () => {
    const signal = new Announcer();
    signal.heardUpTo = Number.POSITIVE_INFINITY;
    return signal;
  };
  const version = async (source: ReadStateSource, minVersion?: number) =>
    (await source.fresh(undefined, minVersion, ['tokens'])).freshness.indexedVersion;

  it("keys answers on the announcements: a change moves its tables' keys without a reading, a block takes one", async () => {
    const signal = heard();
    const source = new ReadStateSource(test.db, 250, signal, 60_000);
    const ask = () => source.fresh(undefined, undefined, ['tokens', 'listings']);
    const first = await ask();
    expect(source.readings).toBe(1);
    const keyed = await ask();
    expect(source.readings).toBe(1);
    // Keyed on the announcements, never on counters (digits): the two kinds of keys cannot meet.
    expect(keyed.version).toMatch(/^g/);
    expect(keyed.tables['tokens']).toMatch(/^g/);
    expect(keyed.freshness.indexedVersion).toBe(first.freshness.indexedVersion);
    // A worker's commit, announced: the key of what it wrote moves, the other's stays; no reading.
    await sql`DELETE FROM tokens`.execute(test.db);
    signal.announce('tokens');
    const after = await ask();
    expect(after.tables['tokens']).not.toBe(keyed.tables['tokens']);
    expect(after.tables['listings']).toBe(keyed.tables['listings']);
    expect(after.version).not.toBe(keyed.version);
    expect(source.readings).toBe(1);
    // Committed but not announced yet (its notification on the way): the keys stand meanwhile.
    await commitBatch(test.db, 2, 'listings');
    expect((await ask()).tables['listings']).toBe(keyed.tables['listings']);
    // A client that names the version it saw reads it at once.
    expect(await version(source, 2)).toBe(2);
    expect(source.readings).toBe(2);
    // A block (the checkpoint moves): one reading, whose version the answers then carry.
    await commitBatch(test.db, 3, 'listings');
    signal.announce('indexer_checkpoints');
    signal.announce('listings');
    expect(await version(source)).toBe(3);
    expect(await version(source)).toBe(3);
    expect(source.readings).toBe(3);
    // A notification naming no table (a function from before the payloads) moves every key, and
    // may have been a block: read.
    const before = await ask();
    signal.announce('');
    const everything = await ask();
    expect(everything.tables['tokens']).not.toBe(before.tables['tokens']);
    expect(everything.tables['listings']).not.toBe(before.tables['listings']);
    expect(source.readings).toBe(4);
    // An ask for every table (no tables named) is read.
    await source.fresh();
    expect(source.readings).toBe(5);
    // Not listening (the connection dropped): every request reads, keyed on the counters.
    await commitBatch(test.db, 4, 'tokens');
    signal.listening = false;
    const read = await ask();
    expect(read.freshness.indexedVersion).toBe(4);
    expect(read.version).toMatch(/^\d/);
    expect(source.readings).toBe(6);
  });

  it("takes a block's freshness from its checkpoint's announcement, and reads when that goes back or is missing", async () => {
    const signal = heard();
    const source = new ReadStateSource(test.db, 250, signal, 60_000);
    const first = await version(source);
    expect(source.readings).toBe(1);
    const ahead = (first ?? 0) + 10;
    // A block: its checkpoint row's notification, then its table's (the statement's trigger).
    signal.announce(`~checkpoint ${ahead} 1700000000000`);
    signal.announce('indexer_checkpoints');
    const state = await source.fresh(undefined, undefined, ['tokens']);
    expect(state.freshness.indexedVersion).toBe(ahead);
    expect(state.freshness.indexedAt?.getTime()).toBe(1_700_000_000_000);
    expect((await source.recent()).freshness.indexedVersion).toBe(ahead);
    // A client's version at or below it needs no reading either.
    expect(await version(source, ahead)).toBe(ahead);
    expect(source.readings).toBe(1);
    // One going back (another follower behind the main one, a reset): read the highest there is.
    signal.announce(`~checkpoint ${ahead - 5} 1700000000000`);
    signal.announce('indexer_checkpoints');
    expect(await version(source)).toBe(first);
    expect(source.readings).toBe(2);
    // The checkpoint changed with no version announced (a row deleted): read.
    signal.announce(`~checkpoint ${ahead + 1} 1700000000000`);
    signal.announce('indexer_checkpoints');
    expect(await version(source)).toBe(ahead + 1);
    signal.announce('indexer_checkpoints');
    expect(await version(source)).toBe(first);
    expect(source.readings).toBe(3);
  });

  it('trusts the announcements only while the heartbeat shows every commit older than maxStaleMs heard', async () => {
    const signal = heard();
    const source = new ReadStateSource(test.db, 250, signal, 20);
    await version(source);
    await version(source);
    expect(source.readings).toBe(1);
    // The heartbeat not heard back for longer than the bound: a commit may be unheard; read.
    signal.heardUpTo = Date.now() - 25;
    const stale = await source.fresh(undefined, undefined, ['tokens']);
    expect(stale.version).toMatch(/^\d/);
    expect(source.readings).toBe(2);
    signal.heardUpTo = Date.now();
    await version(source);
    expect(source.readings).toBe(2);
  });

  it('requests queued behind a reading in flight take it, unless a block was announced since it was sent', async () => {
    const signal = heard();
    const source = new ReadStateSource(test.db, 250, signal, 60_000);
    const tables = ['tokens'];
    const first = source.fresh(undefined, undefined, tables);
    // Sent at the end of the turn: in flight now, so these two queue behind it.
    await new Promise((resolve) => setImmediate(resolve));
    const queued = [source.fresh(undefined, undefined, tables), source.fresh(undefined, undefined, tables)];
    await Promise.all([first, ...queued]);
    expect(source.readings).toBe(1);

    // A block announced while a reading is in flight: the requests queued after it send their own
    // (the reading in flight may have been taken before the block).
    signal.announce('indexer_checkpoints');
    const inFlight = source.fresh(undefined, undefined, tables);
    await new Promise((resolve) => setImmediate(resolve));
    signal.announce('indexer_checkpoints');
    const after = source.fresh(undefined, undefined, tables);
    await Promise.all([inFlight, after]);
    expect(source.readings).toBe(3);
  });

  it('resolves a scope once, and again only when an announced change may have moved its resolution', async () => {
    const signal = heard();
    const source = new ReadStateSource(test.db, 250, signal, 60_000);
    await test.db
      .insertInto('collections')
      .values({
        collection_id: '0xca75',
        token_standard: 'v2',
        creator_address: '0x1',
        collection_name: 'Cats',
        created_at: new Date(),
        created_version: 1,
        last_transaction_version: 1,
      })
      .execute();
    await test.db
      .insertInto('tokens')
      .values({
        token_data_id: '0xca7',
        token_standard: 'v2',
        collection_id: '0xca75',
        token_name: 'cat',
        last_transaction_version: 1,
      })
      .execute();
    const tables = ['listings', 'tokens'];
    const stored = { token: '0xca7' };
    const unstored = { token: '0xd06' };
    const resolved = await source.fresh(stored, undefined, tables, ['tokens']);
    expect(resolved.scopes.get('token=0xca7')?.ids).toEqual(['0xca75']);
    await source.fresh(unstored, undefined, tables, ['tokens']);
    const before = source.readings;
    // A stored token's collection never changes: its tokens written, it stays resolved (its key moves).
    signal.announce('tokens@0xca75');
    const again = await source.fresh(stored, undefined, tables, ['tokens']);
    expect(again.scopes.get('token=0xca7')?.versions.get('0xca75')?.['tokens']).not.toBe(
      resolved.scopes.get('token=0xca7')?.versions.get('0xca75')?.['tokens'],
    );
    expect(source.readings).toBe(before);
    // A token not stored may be stored by any write of tokens: resolved again.
    await source.fresh(unstored, undefined, tables, ['tokens']);
    expect(source.readings).toBe(before + 1);
    // A pair resolves by its own counter: another pair's change leaves it resolved, its own does not.
    const pair = { creator: '0x1', name: 'Cats' };
    expect(
      (await source.fresh(pair, undefined, ['listings'], ['listings'])).scopes.get('0x1/Cats')?.ids,
    ).toEqual(['0xca75']);
    signal.announce('collections:name@0x1/Dogs');
    await source.fresh(pair, undefined, ['listings'], ['listings']);
    expect(source.readings).toBe(before + 2);
    signal.announce('collections:name@0x1/Cats');
    await source.fresh(pair, undefined, ['listings'], ['listings']);
    expect(source.readings).toBe(before + 3);
    // A wallet's bucket and a collection id need no resolving again, whatever is announced.
    const wallet = { wallet: '0xabc' };
    const id = { id: '0xca75' };
    await source.fresh(wallet, undefined, ['listings'], ['listings']);
    await source.fresh(id, undefined, ['listings'], ['listings']);
    for (const change of ['listings@*', 'tokens', 'collections:name@*']) signal.announce(change);
    await source.fresh(wallet, undefined, ['listings'], ['listings']);
    await source.fresh(id, undefined, ['listings'], ['listings']);
    expect(source.readings).toBe(before + 5);
  });

  it("keys a scope's answers on its own announcements: another collection's change leaves its key", async () => {
    const signal = heard();
    const source = new ReadStateSource(test.db, 250, signal, 60_000);
    // A collection page by id: its listings on the collection's counters, tokens on the table's.
    const tables = ['listings', 'tokens'];
    const scoped = ['listings'];
    const cats = { id: '0xca75' };
    const keyOf = async () => {
      const state = await source.fresh(cats, undefined, tables, scoped);
      return `${state.tables['tokens']} ${state.scopes.get('0xca75')?.versions.get('0xca75')?.['listings']}`;
    };
    const first = await keyOf();
    const before = source.readings;
    // A listing in another collection: the same key.
    signal.announce('listings@0xd065');
    signal.announce('listings');
    expect(await keyOf()).toBe(first);
    // Its own collection's listings, every collection's (TRUNCATE, a backfill), a table it keys on
    // the table's counter, or everything: a new key, each.
    const keys = new Set([first]);
    for (const change of ['listings@0xca75', 'listings@*', 'tokens']) {
      signal.announce(change);
      const key = await keyOf();
      expect(keys.has(key), change).toBe(false);
      keys.add(key);
      expect(await keyOf(), change).toBe(key);
    }
    expect(source.readings).toBe(before);
  });
});
