import { createHash } from 'node:crypto';
import { type CompiledQuery, type RawBuilder, sql } from 'kysely';
import { type Db, queryTargetOf } from './database';

/**
 * Runs `query` as a named prepared statement of its connection: after a few executions Postgres
 * keeps a generic plan and stops planning it. For statements whose plan does not depend on the
 * values (equality lookups by key): the listing card's one statement took 1–1.2 ms to plan and
 * about as long to run on the 100k chain, and its generic plan reads the same buffers as the custom
 * one. Not for statements whose best plan depends on a value (ranges, search texts, LIMITs): a
 * generic plan would be blind to it, unless the statement is written so that one plan serves every
 * value (token search: its ranges are bounded by expressions of the parameters, as index
 * conditions, never `LIKE $1`). The name is the text's hash, so one name is only ever one
 * text. A Db not made by createDb (a test's recording wrapper) runs the query as usual.
 *
 * Postgres keeps the generic plan only when its estimate is near the custom plans' average: a
 * parameter the custom plans estimate from a histogram and the generic one by a default (a range
 * on `now`) can keep it planning every run; hide such a value from both (`unestimated`,
 * below). test/generic-plans.test.ts checks the statements that rely on it.
 *
 * A prepared statement names its output columns (no `*` over a table): once a migration adds a
 * column, one whose result came from `*` fails with "cached plan must not change result type" on
 * every connection that prepared it before (a rolling deploy's old processes).
 */
export async function executePrepared<R>(
  db: Db,
  query: RawBuilder<R> | PreparableQuery<R>,
  shapes?: FrequentShapes,
): Promise<R[]> {
  const pool = queryTargetOf(db);
  if (!pool) {
    // A query builder answers its rows, a raw statement a result holding them.
    if (isRaw(query)) return (await query.execute(db)).rows;
    return query.execute();
  }
  const { sql: text, parameters } = isRaw(query) ? query.compile(db) : query.compile();
  const values = parameters as unknown[];
  const name = shapes ? shapes.nameFor(text) : nameOf(text);
  return (await pool.query(name === undefined ? { text, values } : { name, text, values })).rows as R[];
}

/**
 * Which statement texts built from clients' requests (the Indexer GraphQL's) run prepared. A text
 * prepared on a connection stays there for the connection's life, in the server and in pg's client,
 * so texts from requests must be bounded: a text is prepared from its `after`-th sighting, and at
 * most `max` texts ever are (each connection then holds at most `max` of them). Clients send a few
 * documents with different variables (the SDK's), whose texts are the same, so those are the
 * texts that get in; a flood of one-off texts fills only the sightings, which forget. Numbers are
 * written into the texts (a plan can depend on them), so one document paged or polled by a moving
 * number is many texts that differ only in their digits: at most `perShape` of those are prepared,
 * so that such a document cannot take every place from the others.
 */
export class FrequentShapes {
  readonly #sightings = new Map<string, number>();
  readonly #names = new Map<string, string>();
  readonly #shapes = new Map<string, number>();
  constructor(
    readonly after = 3,
    readonly max = 32,
    readonly perShape = 4,
  ) {}

  /** The statement name for `text`, or undefined: run it unnamed. */
  nameFor(text: string): string | undefined {
    const name = this.#names.get(text);
    if (name !== undefined || this.#names.size >= this.max) return name;
    const seen = (this.#sightings.get(text) ?? 0) + 1;
    const shape = text.replace(/[0-9]+/g, '#');
    const ofShape = this.#shapes.get(shape) ?? 0;
    if (seen < this.after || ofShape >= this.perShape) {
      if (this.#sightings.size >= 1_000) this.#sightings.clear();
      this.#sightings.set(text, seen);
      return undefined;
    }
    this.#sightings.delete(text);
    this.#shapes.set(shape, ofShape + 1);
    const named = nameOf(text);
    this.#names.set(text, named);
    return named;
  }

  /** How many texts run prepared. */
  get prepared(): number {
    return this.#names.size;
  }
}

const isRaw = <R>(query: RawBuilder<R> | PreparableQuery<R>): query is RawBuilder<R> =>
  'isRawBuilder' in query && query.isRawBuilder === true;

/** A Kysely query builder (a select): compiled and run the same way as a raw statement. */
export interface PreparableQuery<R> {
  compile(): CompiledQuery<unknown>;
  execute(): Promise<R[]>;
}

/**
 * Names by text, kept: the read-state reading runs for every few cached answers, and hashing its
 * text each time was 2% of the API's busy time on cache hits. The texts are the code's own
 * statements (a few dozen); the bound only guards against one built from data.
 */
const names = new Map<string, string>();
function nameOf(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    name = `mdq_${createHash('sha1').update(text).digest('base64url').slice(0, 20)}`;
    if (names.size >= 1_000) names.clear();
    names.set(text, name);
  }
  return name;
}

/**
 * `now` as a value the planner cannot see: a prepared statement's custom plans estimate
 * `expiration_time > now` from the histogram (most offers expired: few rows) and its generic plan
 * by a default third, so Postgres judged the generic plan dearer and planned the listing card on
 * every request (0.75 ms, four times its run). Unseen in both, the estimates agree and the generic
 * plan is kept; the value, and so every row, is the same. Every prepared statement comparing an
 * expiry with the clock compares through it (the bids, a collection's best offer).
 */
export const unestimated = (now: Date) => sql<Date>`(SELECT ${now}::timestamptz)`;
