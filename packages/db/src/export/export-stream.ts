import { Readable } from 'node:stream';
import type pg from 'pg';
import copyStreams from 'pg-copy-streams';
import { type Db, poolOf } from '../database';
import { decodeCursor, encodeCursor } from '../queries/api/pagination';
import { EXPORT_DATASETS } from './datasets';
import {
  copyStatement,
  type ExportFilter,
  type ExportFormat,
  inlineParameters,
  keyAtOffset,
} from './export-sql';
import { CopyTextToNdjson } from './ndjson-lines';

export interface ExportRequest extends ExportFilter {
  format: ExportFormat;
  /** At most this many rows (a caller's limit or what is left of a quota); null for all. */
  limit: number | null;
  /**
   * Called once with the rows written: before the trailer when the export completes (so that a
   * quota is charged before the client sees the end), or when it is cut off (a count of lines).
   */
  onFinish?: (rows: number) => Promise<void>;
}

/** What the export's last line says. */
export interface ExportSummary {
  dataset: string;
  rows: number;
  /** False when the limit cut the export short: continue with `after=next`. */
  complete: boolean;
  next: string | null;
}

export interface OpenedExport {
  stream: Readable;
  /** Settles when the stream has ended or failed: the rows written (a count of lines when cut off). */
  done: Promise<{ rows: number; summary: ExportSummary | null }>;
}

/** The last line of an NDJSON export; CSV writes the same JSON after a `#`. */
export function trailerLine(summary: ExportSummary, format: ExportFormat): string {
  const json = JSON.stringify({ $export: summary });
  return format === 'csv' ? `#${json}\n` : `${json}\n`;
}

/** Reads a trailer line back (the CLI and tests), or null when the line is a data row. */
export function parseTrailer(line: string): ExportSummary | null {
  const text = line.startsWith('#') ? line.slice(1) : line;
  if (!text.startsWith('{"$export"')) return null;
  return (JSON.parse(text) as { $export: ExportSummary }).$export;
}

/** The cursor that resumes after a row, from the row's key columns (a parsed NDJSON line). */
export function cursorOfRow(dataset: ExportFilter['dataset'], row: Record<string, unknown>): string {
  return encodeCursor(
    EXPORT_DATASETS[dataset].key.map((k) => {
      const value = row[k.column];
      if (typeof value !== 'string' && typeof value !== 'number') {
        throw new Error(`row has no key column '${k.column}'`);
      }
      return value;
    }),
  );
}

/**
 * Opens one export: a client of the Db's pool in a REPEATABLE READ READ ONLY transaction (one
 * snapshot for the rows and the trailer), then `COPY (...) TO STDOUT` read at the consumer's pace.
 * The returned stream holds nothing but COPY's own chunks: pg-copy-streams pauses the connection
 * while the consumer (socket, gzip, file) is behind, so memory stays flat at any size.
 * Errors before the first byte (bad cursor, database down) reject here, so that an HTTP caller
 * can still answer 400 / 503.
 */
export async function openExport(db: Db, request: ExportRequest): Promise<OpenedExport> {
  // A forged cursor fails before a connection is taken.
  if (request.after !== undefined) {
    decodeCursor(
      request.after,
      EXPORT_DATASETS[request.dataset].key.map((k) => k.kind),
    );
  }
  const statement = copyStatement(db, request, request.format, request.limit);
  const client = await poolOf(db).connect();
  // A checked-out client has no pool 'error' listener: a server restart mid-export must not
  // become an unhandled 'error' event.
  const onError = () => {};
  client.on('error', onError);
  try {
    // An export runs as long as its consumer reads: the API's statement timeout is for requests.
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; SET LOCAL statement_timeout = 0');
  } catch (error) {
    client.off('error', onError);
    client.release(true);
    throw error;
  }
  let settle: (value: { rows: number; summary: ExportSummary | null }) => void = () => {};
  const done = new Promise<{ rows: number; summary: ExportSummary | null }>((resolve) => {
    settle = resolve;
  });
  const stream = Readable.from(chunks(db, client, onError, statement, request, settle), {
    objectMode: false,
  });
  return { stream, done };
}

async function* chunks(
  db: Db,
  client: pg.PoolClient,
  onError: () => void,
  statement: string,
  request: ExportRequest,
  settle: (value: { rows: number; summary: ExportSummary | null }) => void,
): AsyncGenerator<Buffer> {
  let lines = 0;
  let finished = false;
  let charged = false;
  let summary: ExportSummary | null = null;
  try {
    const copy = client.query(copyStreams.to(statement));
    // NDJSON: COPY's text rows become JSON lines here, in the same step as they are read (a
    // stream stage in between cost more in back-pressure round trips than the encoding).
    const ndjson =
      request.format === 'ndjson' ? new CopyTextToNdjson(EXPORT_DATASETS[request.dataset].columns) : null;
    for await (const read of copy as AsyncIterable<Buffer>) {
      const chunk = ndjson ? ndjson.push(read) : read;
      if (chunk.length === 0) continue;
      lines += countLines(chunk);
      yield chunk;
    }
    ndjson?.end();
    const rows = copy.rowCount;
    summary = { dataset: request.dataset, rows, complete: true, next: null };
    if (request.limit !== null && rows === request.limit && rows > 0) {
      // Cut by the limit: the key of the last row written is where the next part starts, and a
      // row after it (same snapshot) says whether there is a next part at all.
      const { rows: keys } = await client.query<Record<string, string | number>>(
        inlineParameters(db, keyAtOffset(request, rows - 1)),
      );
      const last = keys[0];
      if (last && keys.length > 1) {
        summary.complete = false;
        summary.next = encodeCursor(Object.keys(last).map((k) => last[k] as string | number));
      }
    }
    await client.query('COMMIT');
    finished = true;
    client.off('error', onError);
    client.release();
    charged = true;
    await request.onFinish?.(rows);
    yield Buffer.from(trailerLine(summary, request.format));
  } finally {
    if (!finished) {
      client.off('error', onError);
      // Cut off mid-COPY (client gone, stream destroyed): the connection is in an unknown
      // state, so it is closed rather than returned to the pool.
      client.release(true);
    }
    const csvHeader = request.format === 'csv' ? 1 : 0;
    const rows = summary?.rows ?? Math.max(0, lines - csvHeader);
    if (!charged) await request.onFinish?.(rows).catch(() => {});
    settle({ rows, summary });
  }
}

/** Newline bytes in a chunk: rows so far (approximate for CSV fields that hold line breaks). */
export function countLines(chunk: Buffer): number {
  let count = 0;
  let at = chunk.indexOf(10);
  while (at !== -1) {
    count++;
    at = chunk.indexOf(10, at + 1);
  }
  return count;
}
