import { sql } from 'kysely';
import type { Db } from '../database';
import { listenForNotifications } from './notification-listener';

/**
 * Folds the `read_versions` rows of backends that have exited into one row per table (backend 0),
 * keeping every table's sum, hence the API's read version, exactly as it was.
 *
 * The rows are per (table, backend) so that writers never wait on one another, and every new
 * connection that writes adds its own: pools close idle connections after 10 s, so a worker that
 * writes every minute adds a row per table it writes, per run, and the sum the API reads for every
 * cached answer (packages/db readState) would grow with the service's age. Rows of live backends
 * are left alone: their next bump must not wait for this statement. A backend that reuses an exited
 * backend's pid and writes meanwhile only waits for the row lock, and its bump is folded with the
 * rest or lands in a new row: the sum moves by exactly its bump either way.
 */
export async function foldReadVersions(db: Db): Promise<{ folded: number }> {
  const { rows } = await sql<{ folded: number }>`
    WITH gone AS (
      DELETE FROM read_versions
      WHERE backend <> 0 AND backend NOT IN (SELECT pid FROM pg_stat_activity WHERE pid IS NOT NULL)
      RETURNING source, version
    ), kept AS (
      INSERT INTO read_versions (source, backend, version)
      SELECT source, 0, sum(version) FROM gone GROUP BY source
      ON CONFLICT (source, backend) DO UPDATE SET version = read_versions.version + excluded.version
    )
    SELECT count(*)::int AS folded FROM gone`.execute(db);
  // The per-collection counters (migration 2026-12-01T1000) grow a row per (collection, table,
  // backend) the same way, and fold the same way.
  const { rows: scoped } = await sql<{ folded: number }>`
    WITH gone AS (
      DELETE FROM read_collection_versions
      WHERE backend <> 0 AND backend NOT IN (SELECT pid FROM pg_stat_activity WHERE pid IS NOT NULL)
      RETURNING collection_id, source, version
    ), kept AS (
      INSERT INTO read_collection_versions (collection_id, source, backend, version)
      SELECT collection_id, source, 0, sum(version) FROM gone GROUP BY collection_id, source
      ON CONFLICT (collection_id, source, backend)
      DO UPDATE SET version = read_collection_versions.version + excluded.version
    )
    SELECT count(*)::int AS folded FROM gone`.execute(db);
  return { folded: (rows[0]?.folded ?? 0) + (scoped[0]?.folded ?? 0) };
}

/**
 * The tables whose writes do not move the API's read version (every other table has the
 * `<table>_read_version_<event>` triggers, readVersionTriggers, migration 2026-12-13T1000: a
 * statement that wrote a row, or a TRUNCATE, moves it; packages/db/test/read-version-triggers.test.ts
 * holds that). None is read by a cached answer: keys are checked on every request and export quotas
 * on every export; the chain tip moves at every poll of the source; the change outbox and the webhook
 * tables are the writers' and deliveries' bookkeeping; the crawler's pending tokens are its own;
 * the counters count themselves.
 */
export const UNVERSIONED_TABLES: readonly string[] = [
  'api_keys',
  'chain_tip',
  'collection_change_outbox',
  'export_usage',
  'kysely_migration',
  'kysely_migration_lock',
  'metadata_pending',
  'read_collection_versions',
  'read_versions',
  'webhook_deliveries',
  'webhook_endpoints',
];

/**
 * The channel every transaction that moves a read counter notifies at its commit, once per table it
 * wrote, the table's name the payload, and once per scope (collection, wallet bucket) whose counter
 * it moved, '<table>@<id>' (bump_read_version, bump_collection_versions; migrations
 * 2026-12-02T1000_read_version_notify, 2026-12-09T1000_read_version_notify_tables,
 * 2026-12-10T1000_read_version_notify_scopes).
 */
export const READ_VERSIONS_CHANNEL = 'mdq_read_versions';

/** What a reader of the counters needs to know of their changes without reading them. */
export interface ReadVersionSignal {
  /** True while every committed change is announced; while false, the counters must be read. */
  readonly listening: boolean;
  /** Moves at each announced change and each (re)connect (changes may have gone unheard meanwhile). */
  readonly generation: number;
  /**
   * Whether a change to one of `tables` was announced after the signal stood at `generation`; with
   * `tables` undefined, a change to anything. A (re)connect or a notification naming no table
   * counts as a change to every table.
   */
  changedSince(generation: number, tables?: readonly string[]): boolean;
  /**
   * Whether the counters of one of `ids` (collection ids, wallet buckets, pairs) for one of `tables`
   * were announced to move after `generation`: what an answer keyed on those scopes' counters
   * depends on. Every table-wide announcement ('<table>@*', TRUNCATE or a backfill's batch) and
   * every change to everything counts.
   */
  scopeChangedSince(generation: number, tables: readonly string[], ids: readonly string[]): boolean;
  /**
   * The generation of the last change announced to `table`'s counter (a change to everything
   * counts): it moves exactly when `changedSince` of the generation before would turn true. What
   * the API keys a cached answer on while it hears every commit, in place of the counter itself.
   */
  changeOf(table: string): number;
  /** The generation of the last change announced to scope `id`'s counter of `table` (as `scopeChangedSince` counts). */
  scopeChangeOf(table: string, id: string): number;
  /**
   * Epoch ms before which every committed change has been heard (0: not known): the send time of
   * the newest of the signal's own heartbeats heard back. While it is recent, nothing announced
   * can be older than `now - heardUpTo` and still unheard, however old the reading it vouches for.
   */
  readonly heardUpTo: number;
  /**
   * The newest checkpoint announced with its version ('~checkpoint', migration 2026-12-21T1000), and
   * the generation of the 'indexer_checkpoints' change its commit announced: while no later change
   * to the checkpoint was announced, the indexed version is this one, heard rather than read.
   */
  readonly checkpoint: AnnouncedCheckpoint | null;
  /**
   * Resolves once every commit before the call has been heard (a heartbeat sent after the call
   * came back), or at once while not listening: what a test awaits between its writes and its
   * reads when it asks for the announcements' effect rather than their timing.
   */
  heard(): Promise<void>;
  close(): Promise<void>;
}

/** A checkpoint's commit as announced: its version, its block time (epoch ms) and its generation. */
export interface AnnouncedCheckpoint {
  version: number;
  at: number | null;
  generation: number;
}

/** A checkpoint row's notification: `~checkpoint <version> <block time, epoch ms or empty>`. */
const CHECKPOINT = '~checkpoint ';

/** Scopes remembered by name at most; past it they are forgotten, and counted as changed. */
const MAX_ANNOUNCED_SCOPES = 100_000;

/**
 * The changes announced so far, by table and by scope: the generation of each one's last change.
 * A reading taken at generation g stands for an answer whose tables none of the later changes named
 * (the metadata crawler's commits, 25–80 a second while it works, touch token documents only), and
 * a scope it resolved stands for an answer keyed on that scope's counters while no later change
 * named the scope (a block's sales name their collections and wallets, not the others).
 *
 * Payloads (functions/bump_read_version.sql, bump_collection_versions.sql): '<table>' (the table's
 * counter moved), '<table>@<id>' (one scope's counter of the table moved: the table's moved with
 * it), '<table>@*' (every scope's), '' (anything).
 */
export class AnnouncedChanges {
  private current = 0;
  /** The generation of the last change that named no table, or of the last (re)connect. */
  private everything = 0;
  private readonly byTable = new Map<string, number>();
  /** By '<table>@<id>'. */
  private readonly byScope = new Map<string, number>();
  /** By table: the last '<table>@*'. */
  private readonly everyScope = new Map<string, number>();
  /** When byScope was last cleared (at its bound): every scope counts as changed then. */
  private scopesForgotten = 0;
  /** The checkpoint rows' notifications of the commit being heard, before its table's one. */
  private pending: Omit<AnnouncedCheckpoint, 'generation'> | null = null;
  private heardCheckpoint: AnnouncedCheckpoint | null = null;

  get generation(): number {
    return this.current;
  }

  get checkpoint(): AnnouncedCheckpoint | null {
    return this.heardCheckpoint;
  }

  /** A commit's notification ('': it did not say what, as the functions before 2026-12-09T1000 did not). */
  announce(payload: string): void {
    if (payload.startsWith(CHECKPOINT)) {
      // A checkpoint row of the commit: its table's notification follows (the statement's trigger
      // runs after the rows'), and gives it its generation. Of several rows, the newest.
      const [version, at] = payload.slice(CHECKPOINT.length).split(' ');
      const heard = { version: Number(version), at: at ? Number(at) : null };
      if (Number.isSafeInteger(heard.version) && heard.version > (this.pending?.version ?? -1))
        this.pending = heard;
      return;
    }
    this.current += 1;
    if (payload === 'indexer_checkpoints' && this.pending) {
      this.heardCheckpoint = { ...this.pending, generation: this.current };
    }
    this.pending = null;
    if (payload === '') {
      this.everything = this.current;
      return;
    }
    const at = payload.indexOf('@');
    if (at === -1) {
      this.byTable.set(payload, this.current);
      return;
    }
    const table = payload.slice(0, at);
    this.byTable.set(table, this.current);
    if (payload.slice(at + 1) === '*') {
      this.everyScope.set(table, this.current);
      return;
    }
    if (this.byScope.size >= MAX_ANNOUNCED_SCOPES) {
      this.byScope.clear();
      this.scopesForgotten = this.current;
    }
    this.byScope.set(payload, this.current);
  }

  /** Changes may have gone unheard (the listening connection was down). */
  reset(): void {
    this.pending = null;
    this.current += 1;
    this.everything = this.current;
  }

  changedSince(generation: number, tables?: readonly string[]): boolean {
    if (this.everything > generation) return true;
    if (tables === undefined) return this.current > generation;
    return tables.some((table) => (this.byTable.get(table) ?? 0) > generation);
  }

  scopeChangedSince(generation: number, tables: readonly string[], ids: readonly string[]): boolean {
    return tables.some((table) => ids.some((id) => this.scopeChangeOf(table, id) > generation));
  }

  changeOf(table: string): number {
    return Math.max(this.everything, this.byTable.get(table) ?? 0);
  }

  scopeChangeOf(table: string, id: string): number {
    return Math.max(
      this.everything,
      this.scopesForgotten,
      this.everyScope.get(table) ?? 0,
      this.byScope.get(`${table}@${id}`) ?? 0,
    );
  }
}

/** How often the signal sends its heartbeat (a notification of its own, heard back). */
const HEARTBEAT_MS = 200;

/** A heartbeat's payload: `~heard <signal> <sent at, epoch ms>`; no table has a '~'. */
const HEARTBEAT = '~heard ';

/**
 * Listens on the primary (`url`: a standby delivers no notifications) for changes of the counters,
 * and every 200 ms notifies a heartbeat from its own session, which proves once heard back that
 * every commit before it was heard (`heardUpTo`): a connection that stops delivering without
 * breaking (a stalled network) then stops vouching within the reader's staleness bound.
 */
export function listenForReadVersions(url: string): ReadVersionSignal {
  const changes = new AnnouncedChanges();
  const self = `${process.pid}.${Math.random().toString(36).slice(2, 10)}`;
  const own = `${HEARTBEAT}${self} `;
  let heardUpTo = 0;
  /** heard()'s callers, each with the time of its call. */
  let waiting: { since: number; resolve: () => void }[] = [];
  const listener = listenForNotifications(url, 'mdq-api-read-versions', [READ_VERSIONS_CHANNEL], {
    notified: (_channel, payload) => {
      if (!payload.startsWith(HEARTBEAT)) changes.announce(payload);
      else if (payload.startsWith(own)) {
        heardUpTo = Math.max(heardUpTo, Number(payload.slice(own.length)) || 0);
        // Sent in a later millisecond than the call: sent after it, so after every commit before it.
        for (const w of waiting) if (w.since < heardUpTo) w.resolve();
        waiting = waiting.filter((w) => w.since >= heardUpTo);
      }
    },
    reset: () => changes.reset(),
  });
  const beat = () => listener.notifySelf(READ_VERSIONS_CHANNEL, `${own}${Date.now()}`);
  const heartbeat = setInterval(beat, HEARTBEAT_MS);
  heartbeat.unref();
  return {
    get listening() {
      return listener.listening;
    },
    get generation() {
      return changes.generation;
    },
    get heardUpTo() {
      return heardUpTo;
    },
    get checkpoint() {
      return changes.checkpoint;
    },
    changedSince: (generation, tables) => changes.changedSince(generation, tables),
    scopeChangedSince: (generation, tables, ids) => changes.scopeChangedSince(generation, tables, ids),
    changeOf: (table) => changes.changeOf(table),
    scopeChangeOf: (table, id) => changes.scopeChangeOf(table, id),
    heard: () => {
      if (!listener.listening) return Promise.resolve();
      const since = Date.now();
      return new Promise<void>((resolve) => {
        waiting.push({ since, resolve });
        // A heartbeat already in flight may have been sent before the call: one of ours after it,
        // stamped past the call's millisecond (one stamped in it may have been sent before it).
        const send = () => {
          if ((Date.now() <= since || !beat()) && listener.listening) setTimeout(send, 1);
        };
        send();
      });
    },
    close: () => {
      clearInterval(heartbeat);
      return listener.close();
    },
  };
}
