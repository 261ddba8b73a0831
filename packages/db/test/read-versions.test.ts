import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pairKey, readState, selectorKey } from '../src/queries/freshness';
import { foldReadVersions, listenForReadVersions } from '../src/queries/read-versions';
import { createTestDatabase, type TestDatabase } from '../src/testing';

/** One connection of its own that writes `tokens` and `collections` once (a statement each: one bump each). */
async function writerThatWrote(url: string): Promise<{ pid: number; client: pg.Client }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  // A bump without data: what the triggers run for a statement that wrote a row.
  await client.query("SELECT read_version_bump('tokens')");
  await client.query("SELECT read_version_bump('collections')");
  const { rows } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  return { pid: rows[0]?.pid ?? 0, client };
}

async function exited(db: TestDatabase['db'], pid: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const { rows } = await sql<{
      n: number;
    }>`SELECT count(*)::int AS n FROM pg_stat_activity WHERE pid = ${pid}`.execute(db);
    if (rows[0]?.n === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`backend ${pid} did not exit`);
}

describe('foldReadVersions', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(() => t.drop());

  const rows = async () =>
    (
      await sql<{ source: string; backend: number; version: string }>`
        SELECT source, backend, version::text AS version FROM read_versions ORDER BY source, backend`.execute(
        t.db,
      )
    ).rows;
  const sumOf = (all: { source: string; version: string }[], source: string) =>
    all.filter((r) => r.source === source).reduce((n, r) => n + Number(r.version), 0);

  it('folds the rows of exited backends into one per table, keeping every sum and the read version', async () => {
    const gone = await Promise.all([writerThatWrote(t.url), writerThatWrote(t.url), writerThatWrote(t.url)]);
    const live = await writerThatWrote(t.url);
    for (const w of gone) await w.client.end();
    for (const w of gone) await exited(t.db, w.pid);

    const before = await rows();
    const versionBefore = (await readState(t.db)).version;
    // Each writer bumped tokens and collections once, in its own row.
    for (const w of [...gone, live]) {
      expect(before.filter((r) => r.backend === w.pid).map((r) => [r.source, r.version])).toEqual([
        ['collections', '1'],
        ['tokens', '1'],
      ]);
    }

    const { folded } = await foldReadVersions(t.db);
    const after = await rows();
    expect(folded).toBeGreaterThanOrEqual(6);
    expect(after.filter((r) => gone.some((w) => w.pid === r.backend))).toEqual([]);
    expect(after.filter((r) => r.backend === live.pid)).toHaveLength(2);
    for (const source of new Set(before.map((r) => r.source))) {
      expect(sumOf(after, source)).toBe(sumOf(before, source));
    }
    expect((await readState(t.db)).version).toBe(versionBefore);
    // Folding again finds nothing new; the folded rows are not folded twice.
    expect(await foldReadVersions(t.db)).toEqual({ folded: 0 });
    expect((await readState(t.db)).version).toBe(versionBefore);

    // A write after the fold still moves the version, by its one bump.
    await live.client.query("SELECT read_version_bump('tokens')");
    const [indexed, written] = versionBefore.split('.');
    expect((await readState(t.db)).version).toBe(`${indexed}.${Number(written) + 1}`);
    await live.client.end();
  });
});

describe('per-collection write counters (read_collection_versions)', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
  });
  afterAll(() => t.drop());

  /** Each (collection, table) counter summed over backends, as the API reads them. */
  const counters = async () =>
    Object.fromEntries(
      (
        await sql<{ k: string; v: string }>`
          SELECT collection_id || ' ' || source AS k, sum(version)::text AS v
            FROM read_collection_versions GROUP BY 1 ORDER BY 1`.execute(t.db)
      ).rows.map((r) => [r.k, Number(r.v)]),
    );
  const rarity = (token: string, collection: string) =>
    sql`INSERT INTO token_rarity (token_data_id, collection_id, score, rank, trait_count, computed_at)
        VALUES (${token}, ${collection}, 1, 1, 1, now())`;

  it('bumps each collection a statement touched once, old and new rows, in the writing transaction', async () => {
    // One statement, three rows in two collections: one bump each.
    await sql`INSERT INTO token_rarity (token_data_id, collection_id, score, rank, trait_count, computed_at)
              VALUES ('a1', 'A', 1, 1, 1, now()), ('a2', 'A', 1, 2, 1, now()), ('b1', 'B', 1, 1, 1, now())`.execute(
      t.db,
    );
    // The rows' kept totals per collection (collection_rarity_totals) move with them, counted the same way.
    expect(await counters()).toEqual({
      'A token_rarity': 1,
      'B token_rarity': 1,
      'A collection_rarity_totals': 1,
      'B collection_rarity_totals': 1,
    });
    // A row moved from A to C: both change.
    await sql`UPDATE token_rarity SET collection_id = 'C' WHERE token_data_id = 'a2'`.execute(t.db);
    expect(await counters()).toEqual({
      'A token_rarity': 2,
      'B token_rarity': 1,
      'C token_rarity': 1,
      'A collection_rarity_totals': 2,
      'B collection_rarity_totals': 1,
      'C collection_rarity_totals': 1,
    });
    await sql`DELETE FROM token_rarity WHERE collection_id = 'B'`.execute(t.db);
    expect((await counters())['B token_rarity']).toBe(2);
    // A rolled-back write leaves no trace: the bump is the transaction's.
    await expect(
      t.db.transaction().execute(async (trx) => {
        await rarity('a9', 'A').execute(trx);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect((await counters())['A token_rarity']).toBe(2);
    // TRUNCATE has no rows to name: it bumps every collection ('*').
    await sql`TRUNCATE token_rarity`.execute(t.db);
    expect((await counters())['* token_rarity']).toBe(1);
  });

  it("counts a collection's (creator, name) pair, and a reading resolves pairs and their counters", async () => {
    const collection = (id: string, name: string) =>
      sql`INSERT INTO collections (collection_id, token_standard, creator_address, collection_name, current_supply,
            total_minted, owner_count, created_at, created_version, last_transaction_version)
          VALUES (${id}, 'v2', '0xc1', ${name}, 0, 0, 0, now(), 1, 1)`;
    await collection('0x1', 'Cats').execute(t.db);
    await collection('0x2', 'Cats').execute(t.db);
    await collection('0x3', 'Dogs').execute(t.db);
    await rarity('t1', '0x1').execute(t.db);
    const state = await readState(t.db, [
      { creator: '0xc1', name: 'Cats' },
      { creator: '0xc1', name: 'Nope' },
    ]);
    const cats = state.scopes.get(pairKey({ creator: '0xc1', name: 'Cats' }));
    expect(cats?.ids).toEqual(['0x1', '0x2']);
    expect(cats?.pairVersion).toBe('2');
    // A new collection moves its identity counter too (bump_collection_identity_version).
    expect(cats?.versions.get('0x1')).toEqual({
      collections: '1',
      'collections:identity': '1',
      token_rarity: '1',
      collection_rarity_totals: '1',
    });
    expect(cats?.versions.get('0x2')).toEqual({ collections: '1', 'collections:identity': '1' });
    expect(state.scopes.get(pairKey({ creator: '0xc1', name: 'Nope' }))).toEqual({
      ids: [],
      pairVersion: '0',
      versions: new Map(),
    });
    // The per-table counters sum every backend's rows.
    expect(state.tables['collections']).toBe('3');
    // A collection that leaves the pair moves the pair's counter.
    await sql`UPDATE collections SET collection_name = 'Lions' WHERE collection_id = '0x2'`.execute(t.db);
    const after = (await readState(t.db, [{ creator: '0xc1', name: 'Cats' }])).scopes.get(
      pairKey({ creator: '0xc1', name: 'Cats' }),
    );
    expect(after?.ids).toEqual(['0x1']);
    expect(after?.pairVersion).toBe('3');
    // A collection's counts moving leaves its pair as it was: the pair's counter stays.
    await sql`UPDATE collections SET owner_count = owner_count + 1 WHERE collection_id = '0x1'`.execute(t.db);
    const counted = (await readState(t.db, [{ creator: '0xc1', name: 'Cats' }])).scopes.get(
      pairKey({ creator: '0xc1', name: 'Cats' }),
    );
    expect(counted?.pairVersion).toBe('3');
    // A collection asked for by id is that id, with its counters, next to the pairs of one reading.
    const both = await readState(t.db, [{ id: '0x1' }, { creator: '0xc1', name: 'Dogs' }]);
    expect(both.scopes.get(selectorKey({ id: '0x1' }))).toEqual({
      ids: ['0x1'],
      pairVersion: '0',
      versions: new Map([
        [
          '0x1',
          { collections: '2', 'collections:identity': '1', token_rarity: '1', collection_rarity_totals: '1' },
        ],
      ]),
    });
    expect(both.scopes.get(selectorKey({ creator: '0xc1', name: 'Dogs' }))?.ids).toEqual(['0x3']);
  });

  it("counts a wallet's bucket for the bids it places, the old bidder's and the new one's, and a reading reads it", async () => {
    const bucket = async (wallet: string) =>
      (await readState(t.db, [{ wallet }])).scopes.get(selectorKey({ wallet }));
    const offer = sql`INSERT INTO collection_offers (marketplace, offer_id, contract_address, buyer, price, token_amount,
                        remaining_amount, status, last_transaction_version)
                      VALUES ('m', 'b1', '0x6d', '0xw1', 5, 1, 1, 'active', 1)`;
    await offer.execute(t.db);
    const first = await bucket('0xw1');
    expect(first?.ids).toHaveLength(1);
    expect(first?.ids[0]).toMatch(/^wallet:\d+$/);
    expect(first?.versions.get(first.ids[0] ?? '')?.['collection_offers']).toBe('1');
    // The bid changes hands (a rewrite): both wallets' buckets move.
    const before = (await bucket('0xw2'))?.versions;
    await sql`UPDATE collection_offers SET buyer = '0xw2' WHERE offer_id = 'b1'`.execute(t.db);
    const moved = await bucket('0xw1');
    expect(moved?.versions.get(moved.ids[0] ?? '')?.['collection_offers']).toBe('2');
    const second = await bucket('0xw2');
    const was = Number(before?.get(second?.ids[0] ?? '')?.['collection_offers'] ?? 0);
    expect(Number(second?.versions.get(second.ids[0] ?? '')?.['collection_offers'])).toBe(was + 1);
  });

  it('folding keeps every per-collection sum', async () => {
    const writer = new pg.Client({ connectionString: t.url });
    await writer.connect();
    await writer.query(`INSERT INTO token_rarity (token_data_id, collection_id, score, rank, trait_count, computed_at)
                        VALUES ('f1', 'F', 1, 1, 1, now())`);
    const { rows } = await writer.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    await writer.end();
    await exited(t.db, rows[0]?.pid ?? 0);
    const before = await counters();
    const { folded } = await foldReadVersions(t.db);
    expect(folded).toBeGreaterThan(0);
    expect(await counters()).toEqual(before);
    const { rows: left } = await sql<{ n: number }>`
      SELECT count(*)::int AS n FROM read_collection_versions WHERE backend = ${rows[0]?.pid ?? 0}`.execute(
      t.db,
    );
    expect(left[0]?.n).toBe(0);
  });
});

/** Polls `done` every 10 ms until it holds; fails after 10 s (a notification that never came). */
async function until(what: string, done: () => boolean): Promise<void> {
  for (let i = 0; i < 1_000; i++) {
    if (done()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`waited 10 s for ${what}`);
}

/**
 * A plain listener on the channel, beside the signal: the payloads in the order they arrive, the
 * signals' heartbeats ('~heard …', every 200 ms) left out.
 */
async function listenBeside(url: string): Promise<{ heard: string[]; raw: pg.Client }> {
  const heard: string[] = [];
  const raw = new pg.Client({ connectionString: url });
  await raw.connect();
  raw.on('notification', (message) => {
    const payload = message.payload ?? '';
    if (!payload.startsWith('~heard ')) heard.push(payload);
  });
  await raw.query('LISTEN mdq_read_versions');
  return { heard, raw };
}

describe('listenForReadVersions', () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase();
  });
  afterAll(() => test.drop());

  it('hears each table a committed transaction wrote once, named, and no rolled-back one', async () => {
    const signal = listenForReadVersions(test.url);
    // A plain listener beside it sees the payloads: the marker ends the sequence, and a session
    // delivers notifications in commit order, so what came before it is all there is.
    const { heard, raw } = await listenBeside(test.url);
    const writer = new pg.Client({ connectionString: test.url });
    await writer.connect();
    try {
      await until('LISTEN', () => signal.listening);
      const start = signal.generation;
      // Three statements on two tables and a per-collection bump: one notification.
      await writer.query('BEGIN');
      await writer.query('UPDATE tokens SET is_burned = is_burned WHERE false');
      await writer.query('UPDATE collections SET collection_name = collection_name WHERE false');
      await writer.query(`SELECT bump_collection_versions('token_rarity', ARRAY['0xc'])`);
      await writer.query('COMMIT');
      // Rolled back: never announced.
      await writer.query('BEGIN');
      await writer.query('UPDATE tokens SET is_burned = is_burned WHERE false');
      await writer.query('ROLLBACK');
      // A table no cached answer reads: no bump, no announcement.
      await writer.query('UPDATE chain_tip SET version = version WHERE false');
      // A bulk rewrite's bump on its own (the rarity rebuild's): one more.
      await writer.query(`SELECT bump_collection_versions('token_rarity', ARRAY['0xc'])`);
      await writer.query(`SELECT pg_notify('mdq_read_versions', 'marker')`);
      await until('the marker', () => heard.includes('marker'));
      // Each names a table it wrote (or the pair pseudo-table), once per transaction, the first
      // transaction's in its triggers' order, and the collection whose counter moved.
      expect(new Set(heard.slice(0, 5))).toEqual(
        new Set(['tokens', 'collections', 'collections:name', 'token_rarity', 'token_rarity@0xc']),
      );
      expect(heard.slice(5)).toEqual(['token_rarity', 'token_rarity@0xc', 'marker']);
      await until('the signal to hear the eight', () => signal.generation >= start + 8);
      expect(signal.generation).toBe(start + 8);
      // What the signal tells of them: which tables changed after a generation.
      expect(signal.changedSince(start, ['tokens'])).toBe(true);
      expect(signal.changedSince(start, ['listings', 'token_ownerships'])).toBe(false);
      expect(signal.changedSince(start + 7, ['token_rarity'])).toBe(false);
      expect(signal.changedSince(start)).toBe(true);
      expect(signal.scopeChangedSince(start, ['token_rarity'], ['0xc'])).toBe(true);
      expect(signal.scopeChangedSince(start, ['token_rarity'], ['0xd'])).toBe(false);
    } finally {
      await writer.end();
      await raw.end();
      await signal.close();
    }
    expect(signal.listening).toBe(false);
  });

  it('hears its own heartbeat back: heardUpTo follows the clock, and no heartbeat is a change', async () => {
    const signal = listenForReadVersions(test.url);
    try {
      await until('LISTEN', () => signal.listening);
      const since = Date.now();
      const generation = signal.generation;
      await until('a heartbeat sent after the start', () => signal.heardUpTo >= since);
      expect(signal.heardUpTo).toBeLessThanOrEqual(Date.now());
      expect(signal.generation).toBe(generation);
    } finally {
      await signal.close();
    }
  });

  it('names each collection and wallet bucket whose counters a commit moved, and every one past 64', async () => {
    const signal = listenForReadVersions(test.url);
    const { heard, raw } = await listenBeside(test.url);
    const marker = async (name: string) => {
      // Taken after the signal's connect: the connect counts as a change to everything, so a
      // generation before it would find the marker 'heard' before the signal heard it.
      const sent = signal.generation;
      await sql`SELECT pg_notify('mdq_read_versions', ${name})`.execute(test.db);
      // The signal's connection too: what it heard before the marker is all there was.
      await until(name, () => heard.includes(name) && signal.changedSince(sent, [name]));
      const at = heard.indexOf(name);
      const before = heard.slice(0, at);
      heard.splice(0, at + 1);
      return before;
    };
    try {
      await until('LISTEN', () => signal.listening);
      // The triggers: one statement, rows in two collections.
      await sql`INSERT INTO token_rarity (token_data_id, collection_id, score, rank, trait_count, computed_at)
                VALUES ('a1', 'A', 1, 1, 1, now()), ('a2', 'A', 1, 2, 1, now()), ('b1', 'B', 1, 1, 1, now())`.execute(
        test.db,
      );
      expect(new Set(await marker('m1'))).toEqual(
        new Set([
          'token_rarity',
          'token_rarity@A',
          'token_rarity@B',
          // Their kept totals, written by token_rarity's triggers in the same transaction.
          'collection_rarity_totals',
          'collection_rarity_totals@A',
          'collection_rarity_totals@B',
        ]),
      );
      const start = signal.generation;
      // A bid: its bidder's bucket, as a reading computes it.
      await sql`INSERT INTO collection_offers (marketplace, offer_id, contract_address, buyer, price, token_amount,
                  remaining_amount, status, last_transaction_version)
                VALUES ('m', 'b1', '0x6d', '0xw1', 5, 1, 1, 'active', 1)`.execute(test.db);
      const bucket = (await readState(test.db, [{ wallet: '0xw1' }])).scopes.get(
        selectorKey({ wallet: '0xw1' }),
      )?.ids[0] as string;
      const bid = await marker('m2');
      expect(bid).toContain(`collection_offers@${bucket}`);
      expect(signal.scopeChangedSince(start, ['collection_offers'], [bucket])).toBe(true);
      expect(signal.scopeChangedSince(start, ['collection_offers'], ['wallet:-1'])).toBe(false);
      expect(signal.scopeChangedSince(start, ['token_rarity'], ['A'])).toBe(false);
      // Past 64 collections in one statement: every scope of the table, none by name.
      const many = signal.generation;
      await sql`INSERT INTO token_rarity (token_data_id, collection_id, score, rank, trait_count, computed_at)
                SELECT 't' || g, 'C' || g, 1, 1, 1, now() FROM generate_series(1, 65) g`.execute(test.db);
      // The kept totals of the rows' collections too (collection_rarity_totals, by token_rarity's triggers).
      const everyScope = [
        'token_rarity',
        'token_rarity@*',
        'collection_rarity_totals',
        'collection_rarity_totals@*',
      ];
      expect(await marker('m3')).toEqual(everyScope);
      expect(signal.scopeChangedSince(many, ['token_rarity'], ['anything'])).toBe(true);
      // TRUNCATE names no row: every scope.
      await sql`TRUNCATE token_rarity`.execute(test.db);
      expect(await marker('m4')).toEqual(everyScope);
    } finally {
      await raw.end();
      await signal.close();
    }
  });
});
