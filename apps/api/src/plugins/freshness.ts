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

/**
 * What a scope's resolution reads, as counters that announce its change: a pair's own counter
 * ('collections:name' of the pair: it moves whenever a collection takes, keeps or leaves it); a
 * stored token's row (its collection's 'tokens' counter; a token never changes collection), or for
 * a token not stored yet, any token's (the next write may store it). An id names its collection,
 * and a wallet's bucket is a hash of its address.
 */
function resolutionOf(
  selector: ScopeSelector,
  scope: ReadScope,
): { tables: readonly string[]; ids?: readonly string[] } | undefined {
  if ('creator' in selector) return { tables: ['collections:name'], ids: [pairKey(selector)] };
  if ('token' in selector)
    return scope.ids.length > 0 ? { tables: ['tokens'], ids: scope.ids } : { tables: ['tokens'] };
  return undefined;
}

/**
 * What a request asks the read state for: the tables its answer reads (undefined: any), the
 * collection or wallet it is about, and which of its tables its key counts by that scope's counters
 * rather than the table's (read-cache-config.ts).
 */
/** What the source reads of a `ReadVersionSignal` (a test hands an `AnnouncedChanges` of its own). */
type PushSignal = Pick<
  ReadVersionSignal,
  'listening' | 'generation' | 'changedSince' | 'scopeChangedSince' | 'heardUpTo'
>;

interface Ask {
  tables: readonly string[] | undefined;
  selector?: ScopeSelector;
  scoped?: readonly string[];
}

/**
 * The table whose writes move the indexed version: every answer carries it (`x-mdq-indexed-version`),
 * so a block's commit takes a new reading whatever the answer reads, and the header is the current
 * version as it was with one global counter. Notifications of the worker's and the metadata
 * crawler's commits, which write no checkpoint, are the ones an answer can stand across.
 */
const FRESHNESS_TABLES = ['indexer_checkpoints'];

/** Scopes kept from earlier readings at most: each is a few counters, and a busy API asks about thousands. */
const MAX_KEPT_SCOPES = 20_000;

/**
 * The one source of the read state (read version + freshness) for every request of the process.
 *
 * - `fresh()`: a reading sent after the call, shared by every request that asks before it is sent.
 *   A request only joins a reading not yet sent, so a write committed before the request arrived
 *   is always seen: what the response cache needs to never serve a stale body. One reading is in
 *   flight at a time: the requests that arrive meanwhile share the next one, sent when it answers
 *   (or at the end of the event-loop turn when none is in flight). Under load that is one
 *   statement per round trip, however many requests: the readings were a third of the API's
 *   socket writes when each turn sent its own.
 * - `recent()`: the last reading while it is younger than `maxAgeMs`, else a fresh one: enough for
 *   the freshness headers of an uncached route (read before its own query, so a header is at most
 *   `maxAgeMs` older than the data and never newer) and for the lag metrics.
 *
 * A request for a collection page names its collection (a (creator, name) pair, or an id where the
 * route takes one), a request for a wallet page its wallet: the reading it joins also resolves it
 * and reads its counters (the collections', the wallet's bucket's), in the same statement.
 *
 * With a `signal` (LISTEN on the primary, `listenForReadVersions`) the counters are pushed rather
 * than read per request. Each commit announces the tables it wrote and the scopes (collections,
 * wallet buckets) whose counters it moved, and a cached route names the tables it reads and which
 * of them it keys on its scope's counters: while the signal listens and has announced no change to
 * the tables it keys on the tables' counters since the last reading was sent (that reading younger
 * than `maxStaleMs`), `fresh()` answers with it and touches no database (a cache hit then costs no
 * round trip). A scope (collection, token, wallet) resolved by any earlier reading stays known
 * while no change to its own counters of its scoped tables, nor to what resolves it, was announced
 * since that reading was sent; past `maxStaleMs`, only while the signal's heartbeat shows every
 * commit older than `maxStaleMs` heard. A change is announced at its commit, so an answer can be
 * older than a write only for the time the notification takes to arrive (milliseconds), and never
 * by more than `maxStaleMs`. A block's commit (the indexer's checkpoint) always takes a new reading,
 * so the freshness headers stay the current ones. A request that names a chain version
 * (`x-mdq-min-version`) the last reading has not reached gets a reading of its own. Requests that
 * queued behind a reading in flight take that reading instead of sending the next one when it
 * vouches for them on the same terms (`pushedForAll`). Only for a source that reads the primary: a
 * standby replays a write after the primary announced it.
 */
export class ReadStateSource {
  /** The reading requests may still join (not sent yet). */
  private queued: Promise<ReadState> | null = null;
  /** The collections and wallets the queued reading will resolve, by selectorKey. */
  private queuedSelectors = new Map<string, ScopeSelector>();
  /** What the requests waiting for the queued reading ask for. */
  private queuedAsks: Ask[] = [];
  /** The highest chain version a request waiting for the queued reading asked for (x-mdq-min-version). */
  private queuedMinVersion: number | undefined;
  /** The reading sent and not answered yet. */
  private inFlight: Promise<ReadState> | null = null;
  /** The newest reading, with the scopes earlier readings resolved that may still stand (`scopes`). */
  private last: ReadState | null = null;
  private lastAt = 0;
  /** The signal's generation when the last reading was sent. */
  private lastGeneration = -1;
  /**
   * Every scope the readings resolved while the signal listened (selectorKey), oldest first, and
   * the generation and time at which the reading that resolved it was sent: `vouches` decides
   * whether one still stands. Updated in place: a request holding an older `last` may find a newer
   * resolution of its scope there, whose counters its handler's data is newer than anyway.
   */
  private readonly scopes = new Map<string, ReadScope>();
  private readonly scopeReadings = new Map<string, { generation: number; at: number }>();

  /** Readings this source has sent (the process's metric counts every source's). */
  private sent = 0;

  constructor(
    private readonly db: Db,
    private readonly maxAgeMs = 250,
    private readonly signal?: PushSignal,
    private readonly maxStaleMs = 1_000,
  ) {}

  /**
   * A reading at least as new as every change committed before the call (announced or not) to
   * `tables` (every table, when undefined). With a signal, the last reading when no change to them
   * was announced since it was sent; for `scoped` tables of a resolved `selector`, when no change to
   * that scope's counters of them was (the answer keys on those). `minVersion` (a chain version)
   * asks for one that has reached it, if the database has.
   */
  fresh(
    selector?: ScopeSelector,
    minVersion?: number,
    tables?: readonly string[],
    scoped?: readonly string[],
  ): Promise<ReadState> {
    const ask: Ask = { tables, selector, scoped };
    const known = this.pushedForAll([ask], minVersion);
    if (known) return Promise.resolve(known);
    this.queued ??= new Promise<ReadState>((resolve, reject) => {
      const send = () => {
        const selectors = [...this.queuedSelectors.values()];
        const minVersion = this.queuedMinVersion;
        const asks = this.queuedAsks;
        this.queued = null;
        this.queuedSelectors = new Map();
        this.queuedAsks = [];
        this.queuedMinVersion = undefined;
        // The reading that answered meanwhile was sent after every change announced so far: when it
        // vouches for these requests, it serves them as it serves a request arriving now (pushed),
        // and the statement is not sent. Under load the requests that queue behind a reading in
        // flight are most of them.
        const answered = this.pushedForAll(asks, minVersion);
        if (answered) {
          resolve(answered);
          return;
        }
        const startedAt = Date.now();
        // Taken before the statement is sent: a change announced meanwhile makes this reading old.
        const generation = this.signal?.generation ?? -1;
        readStateReadings.inc();
        this.sent += 1;
        const reading = readState(this.db, selectors);
        this.inFlight = reading;
        reading.then(
          (state) => {
            if (this.inFlight === reading) this.inFlight = null;
            // The requests take the reading with the kept scopes, as the ones it vouches for later do.
            resolve(this.remember(state, generation, startedAt));
          },
          (error: unknown) => {
            if (this.inFlight === reading) this.inFlight = null;
            reject(error);
          },
        );
      };
      if (this.inFlight) this.inFlight.then(send, send);
      else setImmediate(send);
    });
    if (selector) this.queuedSelectors.set(selectorKey(selector), selector);
    this.queuedAsks.push(ask);
    if (minVersion !== undefined) this.queuedMinVersion = Math.max(this.queuedMinVersion ?? -1, minVersion);
    return this.queued;
  }

  /**
   * Keeps a reading as the last one, with the scopes earlier readings resolved while the signal
   * listened (each vouched for later by its own reading's generation and age, `vouches`); the
   * oldest past MAX_KEPT_SCOPES are dropped.
   */
  private remember(state: ReadState, generation: number, startedAt: number): ReadState {
    this.lastAt = startedAt;
    this.lastGeneration = generation;
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
      this.scopeReadings.set(key, { generation, at: startedAt });
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
    const known = this.pushedForAll([{ tables: undefined }], minVersion);
    if (known) return Promise.resolve(known);
    if (minVersion === undefined && this.last && Date.now() - this.lastAt < this.maxAgeMs) {
      return Promise.resolve(this.last);
    }
    return this.fresh(undefined, minVersion);
  }

  /** The readings this source has sent: what its tests count (the metric is the process's). */
  get readings(): number {
    return this.sent;
  }

  /** True while changes are pushed (the signal listens): readings are sent per change, not per request. */
  get pushing(): boolean {
    return this.signal?.listening === true;
  }

  /**
   * The last reading when the signal vouches for it for every ask, and that reading is younger
   * than `maxStaleMs` and has not missed a block (the checkpoint: its headers would be old).
   */
  private pushedForAll(asks: readonly Ask[], minVersion: number | undefined): ReadState | null {
    const last = this.last;
    const signal = this.signal;
    if (!signal?.listening || !last || this.lastGeneration === -1) return null;
    const now = Date.now();
    if (now - this.lastAt >= this.maxStaleMs) return null;
    if (signal.changedSince(this.lastGeneration, FRESHNESS_TABLES)) return null;
    for (const ask of asks) if (!this.vouches(signal, last, ask, now)) return null;
    if (minVersion !== undefined && (last.freshness.indexedVersion ?? -1) < minVersion) return null;
    return last;
  }

  /**
   * Whether `last` still holds what `ask`'s answer is keyed by: no change announced since it was
   * sent to a table the answer keys on the table's counter; and for its scope, resolved by `last`
   * or kept from the earlier reading that resolved it (no older than `maxStaleMs`, or the signal's
   * heartbeat heard within it), no change announced since that reading to what resolves the scope
   * nor to the scope's counters of the tables the answer keys on them (a scope that resolved to no
   * collection keys them on the tables' counters).
   */
  private vouches(signal: PushSignal, last: ReadState, ask: Ask, now: number): boolean {
    if (ask.tables === undefined) return !signal.changedSince(this.lastGeneration);
    if (!ask.selector) return !signal.changedSince(this.lastGeneration, ask.tables);
    const key = selectorKey(ask.selector);
    const scope = last.scopes.get(key);
    const resolved = this.scopeReadings.get(key);
    if (!scope || !resolved) return false;
    // Older than the bound, a resolution stands only while the signal's heartbeat shows every
    // commit older than the bound heard: nothing unheard can then make it staler than the bound.
    if (now - resolved.at >= this.maxStaleMs && signal.heardUpTo <= now - this.maxStaleMs) return false;
    const scoped = scope.ids.length > 0 ? (ask.scoped ?? []) : [];
    const global = scoped.length > 0 ? ask.tables.filter((table) => !scoped.includes(table)) : ask.tables;
    if (signal.changedSince(this.lastGeneration, global)) return false;
    if (scoped.length > 0 && signal.scopeChangedSince(resolved.generation, scoped, scope.ids)) return false;
    const resolution = resolutionOf(ask.selector, scope);
    if (!resolution) return true;
    return resolution.ids
      ? !signal.scopeChangedSince(resolved.generation, resolution.tables, resolution.ids)
      : !signal.changedSince(resolved.generation, resolution.tables);
  }

  /**
   * The freshness figures alone, for the lag metrics: a recent reading, or the last one when a new
   * one does not answer within `waitMs`. `/metrics` is the operator's view of an overload, and in
   * one the pool's queue is full: a scrape must not wait in it (one did, until every connection
   * came back).
   */
  async current(waitMs = 100): Promise<Freshness> {
    const reading = this.recent();
    const last = this.last;
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
