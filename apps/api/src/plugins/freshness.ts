import { isAddress, normalizeAddress } from '@mdq/chain/address';
import { type CollectionPair, type Db, type Freshness, pairKey, type ReadState, readState } from '@mdq/db';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ReadCacheConfig } from './read-cache-config';

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
 * A request for a collection page names its (creator, name) pair: the reading it joins also
 * resolves that pair and reads its collections' counters, in the same statement.
 */
export class ReadStateSource {
  /** The reading requests may still join (not sent yet). */
  private queued: Promise<ReadState> | null = null;
  /** The pairs the queued reading will resolve. */
  private queuedPairs = new Map<string, CollectionPair>();
  /** The reading sent and not answered yet. */
  private inFlight: Promise<ReadState> | null = null;
  private last: ReadState | null = null;
  private lastAt = 0;

  constructor(
    private readonly db: Db,
    private readonly maxAgeMs = 250,
  ) {}

  fresh(pair?: CollectionPair): Promise<ReadState> {
    this.queued ??= new Promise<ReadState>((resolve, reject) => {
      const send = () => {
        const pairs = [...this.queuedPairs.values()];
        this.queued = null;
        this.queuedPairs = new Map();
        const startedAt = Date.now();
        const reading = readState(this.db, pairs);
        this.inFlight = reading;
        reading.then(
          (state) => {
            if (this.inFlight === reading) this.inFlight = null;
            this.last = state;
            this.lastAt = startedAt;
            resolve(state);
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
    if (pair) this.queuedPairs.set(pairKey(pair), pair);
    return this.queued;
  }

  recent(): Promise<ReadState> {
    if (this.last && Date.now() - this.lastAt < this.maxAgeMs) return Promise.resolve(this.last);
    return this.fresh();
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
  interface FastifyRequest {
    /** The read state this request's answer reflects, taken before the handler read any data. */
    readState?: ReadState;
    /** The collection pair (`pairKey`) that reading resolved, for a collection-scoped cached route. */
    readPair?: string;
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
    const cached = request.routeOptions.config.readCache;
    const pair = cached ? collectionPairOf(request, cached) : undefined;
    if (pair) request.readPair = pairKey(pair);
    const reading = cached ? source.fresh(pair) : source.recent();
    request.readState = await reading.catch(() => undefined);
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

/**
 * The (creator, collection) pair a collection-scoped cached route is asked about, read before
 * validation (where the reading is taken) the way the handler will see it: the creator in the
 * long form the address hook gives it. Absent or malformed: no pair (the route keys on its tables'
 * global counters, or fails validation and is not cached).
 */
function collectionPairOf(request: FastifyRequest, config: ReadCacheConfig): CollectionPair | undefined {
  if (!config.collection) return undefined;
  const query = request.query as Record<string, unknown> | undefined;
  const creator = query?.['creator'];
  const name = query?.['collection'];
  if (typeof creator !== 'string' || typeof name !== 'string' || !isAddress(creator)) return undefined;
  return { creator: normalizeAddress(creator), name };
}
