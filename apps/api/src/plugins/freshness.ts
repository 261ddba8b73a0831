import {
  type Db,
  type Freshness,
  pairKey,
  type ReadScope,
  type ReadState,
  type ReadVersionSignal,
  readState,
  type ScopeSelector,
  selectorKey,
} from '@mdq/db';
import { readStateReadings, readStateWait } from '@mdq/telemetry';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from './errors';
import { requestReadCache, scopedTables, tablesAsked } from './read-cache-config';

/** What the source reads of a `ReadVersionSignal` (a test hands an `AnnouncedChanges` of its own). */
type PushSignal = Pick<
  ReadVersionSignal,
  | 'listening'
  | 'generation'
  | 'changedSince'
  | 'scopeChangedSince'
  | 'changeOf'
  | 'scopeChangeOf'
  | 'heardUpTo'
  | 'checkpoint'
> &
  Partial<Pick<ReadVersionSignal, 'heard'>>;

/**
 * What a request asks the read state for: the tables its answer reads (undefined: any), the
 * collection or wallet it is about, and which of its tables its key counts by that scope's counters
 * rather than the table's (read-cache-config.ts).
 */
interface Ask {
  tables: readonly string[] | undefined;
  selector?: ScopeSelector;
  scoped?: readonly string[];
}

/** A request waiting for the next reading. */
interface Waiter {
  ask: Ask;
  minVersion: number | undefined;
  resolve: (state: ReadState) => void;
  reject: (error: unknown) => void;
}

/**
 * The table whose writes move the indexed version, which every answer carries
 * (`x-mdq-indexed-version`): after a block's commit the headers take the version its checkpoint
 * announced, or a new reading when it announced none (`announcedFreshness`).
 */
const CHECKPOINTS = 'indexer_checkpoints';

/** Scopes kept from earlier readings at most: each is a few counters, and a busy API asks about thousands. */
const MAX_KEPT_SCOPES = 20_000;

const NO_SCOPES: ReadonlyMap<string, ReadScope> = new Map();

/**
 * Whether a scope resolved by the reading sent at `generation` still resolves the same way: a
 * pair to the collections that have it while no change to the pair's own counter ('collections:name'
 * of the pair: it moves whenever a collection takes, keeps or leaves it) was announced since; a
 * token not stored yet while no token was (the next write may store it). A stored token's
 * collection (a token never changes collection), a collection id, a wallet's bucket (a hash of its
 * address) and a lootbox's counter ids never change.
 */
function resolutionStands(
  signal: PushSignal,
  selector: ScopeSelector,
  scope: ReadScope,
  generation: number,
): boolean {
  if ('creator' in selector)
    return !signal.scopeChangedSince(generation, ['collections:name'], [pairKey(selector)]);
  if ('token' in selector && scope.ids.length === 0) return !signal.changedSince(generation, ['tokens']);
  return true;
}

/**
 * The one source of the read state (read version + freshness) for every request of the process.
 *
 * - `fresh()`: a read state as new as every change committed before the call, which the response
 *   cache keys an answer by.
 * - `recent()`: the last reading while it is younger than `maxAgeMs`, else a fresh one: enough for
 *   the freshness headers of an uncached route (read before its own query, so a header is at most
 *   `maxAgeMs` older than the data and never newer) and for the lag metrics.
 *
 * Without a signal every state is a reading of the counters (packages/db `readState`), sent after
 * the call and shared by every request that asks before it is sent. A request only joins a reading
 * not yet sent, so a write committed before the request arrived is always seen: what the response
 * cache needs to never serve a stale body. One reading is in flight at a time: the requests that
 * arrive meanwhile share the next one, sent when it answers (or at the end of the event-loop turn
 * when none is in flight). A request for a collection page names its collection (a (creator, name)
 * pair, or an id where the route takes one), a request for a wallet page its wallet: the reading it
 * joins also resolves it and reads its counters, in the same statement.
 *
 * With a `signal` (LISTEN on the primary, `listenForReadVersions`) the counters are not read at all
 * while it hears every commit: each commit announces the tables it wrote and the scopes
 * (collections, wallet buckets, lootboxes) whose counters it moved, so the generation of the last
 * announcement naming a counter moves exactly when the counter does, and a cached answer is keyed
 * on those generations (`announced`): a request touches no database, whether its answer is then a
 * hit or a miss. A block's commit announces its checkpoint's version and block time, which the
 * freshness headers then carry (`announcedFreshness`). Readings are left for what the announcements
 * do not carry: a checkpoint that moved without announcing its version, or back; and the
 * resolution of a scope no reading resolved yet, or whose resolution an announced change may have
 * moved (`resolutionStands`: a pair's collections, a token not stored yet). A change is announced at its
 * commit, so an answer can be older than a write only for the time the notification takes to
 * arrive (milliseconds), and never by more than `maxStaleMs`: the keys are trusted only while the
 * signal's heartbeat shows every commit older than that heard. A request that names a chain version
 * (`x-mdq-min-version`) the last reading has not reached gets a reading of its own. Only for a
 * source that reads the primary: a standby replays a write after the primary announced it.
 */
export class ReadStateSource {
  /** The requests waiting for the next reading (not sent yet). */
  private waiting: Waiter[] = [];
  /** Whether the next reading's send is scheduled (end of turn, or the answer of the one in flight). */
  private scheduled = false;
  /** The reading sent and not answered yet. */
  private inFlight: Promise<ReadState> | null = null;
  /** The newest reading, with the scopes earlier readings resolved that may still stand (`scopes`). */
  private last: ReadState | null = null;
  private lastAt = 0;
  /** The signal's generation when the last reading was sent (-1: it did not listen). */
  private lastGeneration = -1;
  /** The freshness of the last checkpoint heard since that reading, by its generation. */
  private pushed: { generation: number; freshness: Freshness } | null = null;
  /**
   * Every scope the readings resolved while the signal listened (selectorKey), oldest first, and
   * the generation at which the reading that resolved it was sent: `resolutionStands` decides
   * whether one still stands.
   */
  private readonly scopes = new Map<string, ReadScope>();
  private readonly scopeReadings = new Map<string, number>();

  /** Readings this source has sent (the process's metric counts every source's). */
  private sent = 0;

  constructor(
    private readonly db: Db,
    private readonly maxAgeMs = 250,
    private readonly signal?: PushSignal,
    private readonly maxStaleMs = 1_000,
  ) {}

  /**
   * A read state at least as new as every change committed before the call (announced or not) to
   * `tables` (every table, when undefined), keyed for `scoped` tables of a `selector` on that
   * scope's counters. `minVersion` (a chain version) asks for one that has reached it, if the
   * database has.
   */
  fresh(
    selector?: ScopeSelector,
    minVersion?: number,
    tables?: readonly string[],
    scoped?: readonly string[],
  ): Promise<ReadState> {
    const ask: Ask = { tables, selector, scoped };
    const known = this.announced(ask, minVersion);
    if (known) return Promise.resolve(known);
    return new Promise<ReadState>((resolve, reject) => {
      this.waiting.push({ ask, minVersion, resolve, reject });
      if (this.scheduled) return;
      this.scheduled = true;
      if (this.inFlight) this.inFlight.then(this.send, this.send);
      else setImmediate(this.send);
    });
  }

  /**
   * Sends the reading the waiting requests share. The reading that answered meanwhile (they queued
   * behind it) serves the ones it now vouches for, as it serves a request arriving now: under load
   * those are most of them, and the statement is sent for the rest only, resolving the scopes they
   * need.
   */
  private readonly send = (): void => {
    this.scheduled = false;
    const waiters = this.waiting.filter((w) => {
      const known = this.announced(w.ask, w.minVersion);
      if (known) w.resolve(known);
      return !known;
    });
    this.waiting = [];
    if (waiters.length === 0) return;
    // Every waiter's scope, resolved or not: one that ends up keyed on this reading's counters (a
    // block announced while it was in flight) needs that scope's counters of this reading.
    const selectors = new Map<string, ScopeSelector>();
    for (const { ask } of waiters) if (ask.selector) selectors.set(selectorKey(ask.selector), ask.selector);
    const startedAt = Date.now();
    // Taken before the statement is sent: a change announced meanwhile makes this reading old.
    const generation = this.signal?.listening ? this.signal.generation : -1;
    readStateReadings.inc();
    this.sent += 1;
    const reading = readState(this.db, [...selectors.values()]);
    this.inFlight = reading;
    reading.then(
      (state) => {
        if (this.inFlight === reading) this.inFlight = null;
        const kept = this.remember(state, generation, startedAt);
        // Keyed on the announcements when they vouch (the same keys as a request arriving now),
        // else on the counters this reading read, sent after every one of these requests arrived.
        for (const w of waiters) w.resolve(this.announced(w.ask, w.minVersion) ?? kept);
      },
      (error: unknown) => {
        if (this.inFlight === reading) this.inFlight = null;
        for (const w of waiters) w.reject(error);
      },
    );
  };

  /**
   * Keeps a reading as the last one, with the scopes earlier readings resolved while the signal
   * listened (each standing while `resolutionStands`); the oldest past MAX_KEPT_SCOPES are dropped.
   */
  private remember(state: ReadState, generation: number, startedAt: number): ReadState {
    this.lastAt = startedAt;
    this.lastGeneration = generation;
    // A reading has the highest checkpoint: what was heard before it goes.
    this.pushed = null;
    if (generation === -1 || this.signal?.listening !== true) {
      // Nothing vouches for a reading now: each request keeps the one it joined, scopes and all.
      this.scopes.clear();
      this.scopeReadings.clear();
      this.last = state;
      return state;
    }
    for (const [key, scope] of state.scopes) {
      // Deleted first, so the map's order stays the order of resolution.
      this.scopes.delete(key);
      this.scopes.set(key, scope);
      this.scopeReadings.delete(key);
      this.scopeReadings.set(key, generation);
    }
    for (const key of this.scopes.keys()) {
      if (this.scopes.size <= MAX_KEPT_SCOPES) break;
      this.scopes.delete(key);
      this.scopeReadings.delete(key);
    }
    const last = { ...state, scopes: this.scopes };
    this.last = last;
    return last;
  }

  recent(minVersion?: number): Promise<ReadState> {
    const last = this.last;
    const freshness = this.announcedFreshness(minVersion);
    if (last && freshness) {
      // The freshness is current; the last reading's counters may not be: the version (what the
      // totals are kept by) is the announcements'.
      return Promise.resolve({ ...last, version: this.announcedVersion(), freshness });
    }
    if (minVersion === undefined && last && Date.now() - this.lastAt < this.maxAgeMs) {
      return Promise.resolve(last);
    }
    return this.fresh(undefined, minVersion);
  }

  /** The readings this source has sent: what its tests count (the metric is the process's). */
  get readings(): number {
    return this.sent;
  }

  /**
   * Resolves once every commit before the call has been heard (at once when nothing is pushed):
   * a test's writes are then in the keys of the answers it asks next.
   */
  settled(): Promise<void> {
    return this.signal?.listening && this.signal.heard ? this.signal.heard() : Promise.resolve();
  }

  /** True while changes are pushed (the signal listens): the counters are not read per request. */
  get pushing(): boolean {
    return this.signal?.listening === true;
  }

  /**
   * The freshness figures when the announcements stand in for the counters now, else null: the
   * signal listens, its heartbeat shows every commit older than `maxStaleMs` heard, and the last
   * reading was taken while it listened. The figures are that reading's while no block was announced
   * since; after a block, the checkpoint its commit announced ('~checkpoint': its version and block
   * time) when that is the last change announced to the checkpoint and it went forward from every
   * version known (a checkpoint written otherwise, or one going back, as another follower's behind
   * the main one: a reading, which has the highest). `minVersion` must have been reached.
   */
  private announcedFreshness(minVersion: number | undefined): Freshness | null {
    const signal = this.signal;
    const last = this.last;
    if (!signal?.listening || !last || this.lastGeneration === -1) return null;
    if (signal.heardUpTo <= Date.now() - this.maxStaleMs) return null;
    let freshness = last.freshness;
    if (signal.changeOf(CHECKPOINTS) > this.lastGeneration) {
      const heard = signal.checkpoint;
      if (!heard || heard.generation < signal.changeOf(CHECKPOINTS)) return null;
      if (this.pushed?.generation !== heard.generation) {
        const known = Math.max(
          this.pushed?.freshness.indexedVersion ?? -1,
          last.freshness.indexedVersion ?? -1,
        );
        if (heard.version < known) return null;
        const tip = last.freshness.tipVersion;
        this.pushed = {
          generation: heard.generation,
          freshness: {
            indexedVersion: heard.version,
            indexedAt: heard.at === null ? null : new Date(heard.at),
            // As a reading raises it: the chain has at least what was indexed.
            tipVersion: tip === null ? null : Math.max(tip, heard.version),
            tipSeenAt: last.freshness.tipSeenAt,
          },
        };
      }
      freshness = this.pushed.freshness;
    }
    if (minVersion !== undefined && (freshness.indexedVersion ?? -1) < minVersion) return null;
    return freshness;
  }

  /** The read version while announcing: one generation per announced change, as the counters' sum moves per write. */
  private announcedVersion(): string {
    return `g${this.signal?.generation ?? 0}`;
  }

  /** The kept resolution of `selector` while it stands (announcing), else undefined. */
  private standingScope(selector: ScopeSelector): ReadScope | undefined {
    const signal = this.signal;
    if (!signal?.listening || this.lastGeneration === -1) return undefined;
    const key = selectorKey(selector);
    const scope = this.scopes.get(key);
    const generation = this.scopeReadings.get(key);
    if (!scope || generation === undefined) return undefined;
    return resolutionStands(signal, selector, scope, generation) ? scope : undefined;
  }

  /**
   * The read state of `ask` keyed on the announcements (`announcedFreshness`), or null when a reading is
   * needed: for every table the answer reads, the generation of the last change announced to it;
   * for the tables it keys on its scope's counters, the generation of the last change announced to
   * each of the scope's ids (its resolution kept from the reading that made it, while it stands).
   * The 'g' sets these keys apart from the counters' (digits): an answer kept under one is never
   * taken for the other. An ask for every table (undefined) is read.
   */
  private announced(ask: Ask, minVersion: number | undefined): ReadState | null {
    const signal = this.signal;
    const last = this.last;
    if (!signal || !last || ask.tables === undefined) return null;
    const freshness = this.announcedFreshness(minVersion);
    if (!freshness) return null;
    let scopes = NO_SCOPES;
    if (ask.selector) {
      const scope = this.standingScope(ask.selector);
      if (!scope) return null;
      const keyed = scope.ids.length > 0 ? (ask.scoped ?? []) : [];
      const versions = new Map<string, Record<string, string>>();
      for (const id of scope.ids) {
        const of: Record<string, string> = {};
        for (const table of keyed) of[table] = `g${signal.scopeChangeOf(table, id)}`;
        versions.set(id, of);
      }
      const pairVersion =
        'creator' in ask.selector
          ? `g${signal.scopeChangeOf('collections:name', pairKey(ask.selector))}`
          : '0';
      scopes = new Map([[selectorKey(ask.selector), { ids: scope.ids, pairVersion, versions }]]);
    }
    const tables: Record<string, string> = {};
    for (const table of ask.tables) tables[table] = `g${signal.changeOf(table)}`;
    return { version: this.announcedVersion(), tables, all: {}, scopes, freshness };
  }

  /**
   * The freshness figures alone, for the lag metrics: a reading younger than `maxAgeMs` (not the
   * announced checkpoint: the chain's tip is in no announcement), or the last one when a new one
   * does not answer within `waitMs`. `/metrics` is the operator's view of an overload, and in one
   * the pool's queue is full: a scrape must not wait in it (one did, until every connection came
   * back).
   */
  async current(waitMs = 100): Promise<Freshness> {
    const last = this.last;
    const reading = last && Date.now() - this.lastAt < this.maxAgeMs ? Promise.resolve(last) : this.fresh();
    if (!last) return (await reading).freshness;
    let timer: NodeJS.Timeout | undefined;
    const fallback = new Promise<ReadState>((resolve) => {
      timer = setTimeout(() => resolve(last), waitMs);
    });
    try {
      return (await Promise.race([reading, fallback])).freshness;
    } finally {
      clearTimeout(timer);
      // The reading goes on; a failure of it is the next request's to report, not this scrape's.
      reading.catch(() => undefined);
    }
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    readState: ReadStateSource;
  }
  interface FastifyRequest {
    /** The read state this request's answer reflects, taken before the handler read any data. */
    readState?: ReadState;
    /** The collection or wallet (`selectorKey`) that reading resolved, for a scoped cached route. */
    readScope?: string;
  }
}

/**
 * `x-mdq-indexed-version` and `x-mdq-indexed-at` on every answer of the scope: how fresh the data
 * is, the first question a front end has about an NFT API. Read before the handler runs, so the
 * headers never claim a version newer than the data the handler saw (before validation, so a 400
 * carries them too). A route with the response cache takes a fresh reading, which the cache then
 * keys its body by: header and body describe the same state. A failed read leaves the headers out
 * and lets the route itself answer (with 503 when the database is down).
 */
export function registerFreshnessHeaders(app: FastifyInstance, source: ReadStateSource): void {
  app.addHook('preValidation', async (request) => {
    const cache = requestReadCache(request);
    if (cache?.selector) request.readScope = selectorKey(cache.selector);
    const minVersion = minVersionOf(request);
    const reading = cache
      ? source.fresh(
          cache.selector,
          minVersion,
          tablesAsked(cache.config, request.query),
          scopedTables(cache.config),
        )
      : source.recent(minVersion);
    const asked = performance.now();
    request.readState = await reading.catch(() => undefined);
    readStateWait.observe(
      { route: request.routeOptions.url ?? 'unmatched' },
      (performance.now() - asked) / 1000,
    );
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    const fresh = request.readState?.freshness;
    if (fresh?.indexedVersion != null) {
      reply.header('x-mdq-indexed-version', String(fresh.indexedVersion));
      if (fresh.indexedAt) reply.header('x-mdq-indexed-at', fresh.indexedAt.toISOString());
    }
    done(null, payload);
  });
}

/** The request header asking for data at least as new as a chain version. */
const MIN_VERSION_HEADER = 'x-mdq-min-version';

/**
 * `x-mdq-min-version: <chain version>`: the answer must come from data indexed at least that far,
 * when the database has it (a client that just saw its transaction at that version reads its own
 * write). Absent: undefined. Anything but one non-negative integer is the client's error.
 */
function minVersionOf(request: FastifyRequest): number | undefined {
  const value = request.headers[MIN_VERSION_HEADER];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^\d{1,19}$/.test(value.trim())) {
    throw new ApiError(
      400,
      'INVALID_PARAMETER',
      `'${MIN_VERSION_HEADER}' must be a chain version (a non-negative integer)`,
    );
  }
  return Number(value.trim());
}
