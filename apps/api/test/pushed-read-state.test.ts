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
    expect(readings()).toBeGreaterThan(sent);
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
    // No scope the sale did not name was read again (each was, after every block, when a commit
    // named its tables alone).
    expect(readings()).toBe(sent);
    // The buyer's purchases did change: read again, and the sale is in them.
    const after = await h.get(buyerHistory);
    expect(after.headers['x-mdq-cache']).toBe('miss');
    expect(after.body).not.toBe(before.get(buyerHistory));
    expect(readings()).toBe(sent + 1);
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

  const version = async (source: ReadStateSource, minVersion?: number) =>
    (await source.fresh(undefined, minVersion)).freshness.indexedVersion;

  it('serves the last reading while no change is announced, and reads again when one is', async () => {
    const signal = new Announcer();
    const source = new ReadStateSource(test.db, 250, signal, 60_000);
    expect(await version(source)).toBe(1);
    // Committed but not announced (its notification still on the way): the reading stands.
    await commitBatch(test.db, 2, 'tokens');
    expect(await version(source)).toBe(1);
    // A client that names the version it saw reads it at once.
    expect(await version(source, 2)).toBe(2);
    await commitBatch(test.db, 3, 'tokens');
    signal.announce('tokens');
    expect(await version(source)).toBe(3);
    // Not listening (the connection dropped): every request reads.
    await commitBatch(test.db, 4, 'tokens');
    signal.listening = false;
    expect(await version(source)).toBe(4);
  });

  it('requests queued behind a reading in flight take it, unless a change was announced since it was sent', async () => {
    const signal = new Announcer();
    const source = new ReadStateSource(test.db, 250, signal, 60_000);
    const sent = () => source.readings;
    const before = sent();
    const first = source.fresh();
    // Sent at the end of the turn: in flight now, so these two queue behind it.
    await new Promise((resolve) => setImmediate(resolve));
    const queued = [source.fresh(), source.fresh()];
    const answers = await Promise.all([first, ...queued]);
    expect(sent() - before).toBe(1);
    expect(new Set(answers).size).toBe(1);

    // A change announced while a reading is in flight: the request queued after it sends its own
    // (the reading in flight may have been taken before the change).
    signal.announce('tokens');
    const beforeSecond = sent();
    const inFlight = source.fresh();
    await new Promise((resolve) => setImmediate(resolve));
    signal.announce('tokens');
    const after = source.fresh();
    const [a, b] = await Promise.all([inFlight, after]);
    expect(sent() - beforeSecond).toBe(2);
    expect(b).not.toBe(a);
  });

  it('a reading stands for an answer whose tables no announced change named, and only for it', async () => {
    const signal = new Announcer();
    const source = new ReadStateSource(test.db, 250, signal, 60_000);
    const read = async (tables: readonly string[] | undefined) =>
      (await source.fresh(undefined, undefined, tables)).freshness.indexedVersion;
    const reading = async (tables: readonly string[] | undefined) =>
      source.fresh(undefined, undefined, tables);
    const first = await reading(['listings']);
    // A worker's commit (no checkpoint) that wrote tokens, announced as the commit announces it.
    await sql`DELETE FROM tokens`.execute(test.db);
    signal.announce('tokens');
    const before = source.readings;
    // An answer that reads listings only: the reading stands.
    expect(await reading(['listings'])).toBe(first);
    expect(source.readings).toBe(before);
    // One that reads tokens, or does not say what it reads: a new reading, which then stands for both.
    const second = await reading(['listings', 'tokens']);
    expect(second).not.toBe(first);
    expect(await reading(undefined)).toBe(second);
    expect(source.readings).toBe(before + 1);
    // A block (the checkpoint moves): a new reading for every answer, whose headers carry the version.
    const version = (first.freshness.indexedVersion ?? 0) + 1;
    await commitBatch(test.db, version);
    signal.announce('indexer_checkpoints');
    expect(await read(['listings'])).toBe(version);
    // A notification naming no table (a function from before the payloads) retires every reading.
    await sql`DELETE FROM listings`.execute(test.db);
    signal.announce('');
    await read(['token_rarity']);
    expect(source.readings).toBe(before + 3);
  });

  it('keeps a scope an earlier reading resolved while nothing its answers read changed, then resolves it again', async () => {
    const signal = new Announcer();
    const source = new ReadStateSource(test.db, 250, signal, 60_000);
    const tables = ['listings', 'tokens'];
    const dog = { token: '0xd06' };
    const cat = { token: '0xca7' };
    await source.fresh(dog, undefined, tables);
    const before = source.readings;
    // Another token's page needs a reading of its own; a change to a table neither page reads
    // leaves the first token resolved by the first reading.
    const catState = await source.fresh(cat, undefined, tables);
    expect(catState.scopes.has('token=0xca7')).toBe(true);
    signal.announce('marketplace_activities');
    const dogAgain = await source.fresh(dog, undefined, tables);
    expect(dogAgain.scopes.has('token=0xd06')).toBe(true);
    expect(source.readings).toBe(before + 1);
    // Tokens written (a token's collection is read from its row): both are resolved again.
    signal.announce('tokens');
    await source.fresh(dog, undefined, tables);
    expect(source.readings).toBe(before + 2);
    // A pair resolves by its own counter: a change to another pair's, or to tokens when the page
    // does not read tokens, leaves it resolved; a change to its own resolves it again.
    const pair = { creator: '0x1', name: 'Dogs' };
    await source.fresh(pair, undefined, ['listings']);
    signal.announce('tokens');
    signal.announce('collections:name@0x1/Cats');
    await source.fresh(pair, undefined, ['listings']);
    expect(source.readings).toBe(before + 3);
    signal.announce('collections:name@0x1/Dogs');
    await source.fresh(pair, undefined, ['listings']);
    expect(source.readings).toBe(before + 4);
  });

  it("keys a scope's answers on its own counters: a change to another collection's leaves it resolved", async () => {
    const signal = new Announcer();
    const source = new ReadStateSource(test.db, 250, signal, 60_000);
    // A collection page by id: its listings on the collection's counters, tokens on the table's.
    const tables = ['listings', 'tokens'];
    const scoped = ['listings'];
    const cats = { id: '0xca75' };
    await source.fresh(cats, undefined, tables, scoped);
    const before = source.readings;
    // A listing in another collection: the page stands on the reading it has.
    signal.announce('listings@0xd065');
    await source.fresh(cats, undefined, tables, scoped);
    expect(source.readings).toBe(before);
    // An answer that keys listings on the table's counter reads again: a scope's change is its table's.
    await source.fresh(undefined, undefined, ['listings']);
    expect(source.readings).toBe(before + 1);
    // Its own collection's listings, every collection's (TRUNCATE, a backfill), or a table it keys on
    // the table's counter: read again, each.
    for (const [i, change] of ['listings@0xca75', 'listings@*', 'tokens'].entries()) {
      signal.announce(change);
      await source.fresh(cats, undefined, tables, scoped);
      expect(source.readings, change).toBe(before + 2 + i);
      await source.fresh(cats, undefined, tables, scoped);
      expect(source.readings, change).toBe(before + 2 + i);
    }
  });

  it("keeps a scope past maxStaleMs only while the signal's heartbeat shows every older commit heard", async () => {
    const signal = new Announcer();
    const source = new ReadStateSource(test.db, 250, signal, 20);
    const cats = { id: '0xca75' };
    const ask = () => source.fresh(cats, undefined, ['listings'], ['listings']);
    await ask();
    await new Promise((resolve) => setTimeout(resolve, 30));
    // A block's reading (no scope): the pair's resolution is now older than the bound.
    signal.announce('indexer_checkpoints');
    await source.fresh(undefined, undefined, ['tokens']);
    const before = source.readings;
    // Heard up to now: it stands.
    signal.heardUpTo = Date.now();
    await ask();
    expect(source.readings).toBe(before);
    // The heartbeat not heard back for longer than the bound: resolved again.
    signal.heardUpTo = Date.now() - 25;
    await ask();
    expect(source.readings).toBe(before + 1);
  });

  it('trusts a reading no longer than maxStaleMs, announced change or not', async () => {
    const signal = new Announcer();
    const source = new ReadStateSource(test.db, 250, signal, 1);
    const first = await version(source);
    await commitBatch(test.db, (first ?? 0) + 1, 'tokens');
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(await version(source)).toBe((first ?? 0) + 1);
  });
});
