import { createWriteStream } from 'node:fs';
import { open, stat, truncate } from 'node:fs/promises';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Db } from '@mdq/db';
import {
  countExportRows,
  countLines,
  cursorOfRow,
  type ExportDatasetName,
  type ExportFilter,
  type ExportFormat,
  openExport,
  parseTrailer,
} from '@mdq/db/export';
import { findCollections } from '@mdq/db/read';
import cliProgress from 'cli-progress';
import { UsageError } from '../runtime/fail';

export interface RunExportOptions {
  out: string;
  resume: boolean;
  format: ExportFormat;
  limit: number | null;
  filter: {
    dataset: ExportDatasetName;
    collectionId?: string | undefined;
    creator?: string | undefined;
    collection?: string | undefined;
    wallet?: string | undefined;
    fromVersion?: number | undefined;
    toVersion?: number | undefined;
  };
  /** Where progress goes; stderr (a bar on a terminal, plain lines otherwise) unless a test says. */
  progress?: NodeJS.WriteStream;
}

interface ResumePoint {
  complete: boolean;
  after?: string;
  /** Bytes of the file to keep: every complete data row, without a trailer or a torn line. */
  keep: number;
}

const TAIL_BYTES = 4 << 20;

/** Where an earlier run of the same export stopped, read from the end of its file. */
async function resumePoint(
  file: string,
  dataset: ExportDatasetName,
  format: ExportFormat,
): Promise<ResumePoint | null> {
  const size = await stat(file).then(
    (s) => s.size,
    () => null,
  );
  if (size === null || size === 0) return null;
  const start = Math.max(0, size - TAIL_BYTES);
  const handle = await open(file, 'r');
  const tail = Buffer.alloc(size - start);
  try {
    await handle.read(tail, 0, tail.length, start);
  } finally {
    await handle.close();
  }
  // Drop a torn last line: only rows that ended with a newline were written whole.
  const end = tail.lastIndexOf(10);
  if (end === -1) return null;
  const lineStart = tail.lastIndexOf(10, end - 1) + 1;
  const line = tail.subarray(lineStart, end).toString('utf8');
  const trailer = parseTrailer(line);
  if (trailer) {
    if (trailer.complete || trailer.next === null) return { complete: true, keep: size };
    return { complete: false, after: trailer.next, keep: start + lineStart };
  }
  if (format === 'csv') {
    throw new UsageError(
      'a CSV export cut off mid-stream cannot be resumed (a row may span lines): use NDJSON',
    );
  }
  const row = JSON.parse(line) as Record<string, unknown>;
  return { complete: false, after: cursorOfRow(dataset, row), keep: start + end + 1 };
}

/** Writes an export to a file with a progress bar (TTY) or plain progress lines. */
export async function runExport(db: Db, options: RunExportOptions): Promise<void> {
  const { filter, format } = options;
  let collectionIds: string[] | undefined;
  if (filter.collectionId !== undefined) collectionIds = [filter.collectionId];
  if (filter.creator !== undefined && filter.collection !== undefined) {
    const found = await findCollections(db, filter.creator, filter.collection);
    if (found.length === 0) throw new UsageError(`no collection "${filter.collection}" by ${filter.creator}`);
    collectionIds = found.map((c) => c.collectionId);
  }
  const point = options.resume ? await resumePoint(options.out, filter.dataset, format) : null;
  const out = options.progress ?? process.stderr;
  if (point?.complete) {
    out.write(`${options.out} already holds a complete export\n`);
    return;
  }
  if (point) await truncate(options.out, point.keep);
  const exportFilter: ExportFilter = {
    dataset: filter.dataset,
    collectionIds,
    wallet: filter.wallet,
    fromVersion: filter.fromVersion,
    toVersion: filter.toVersion,
    after: point?.after,
  };
  const available = await countExportRows(db, exportFilter);
  const total = options.limit === null ? available : Math.min(options.limit, available);
  const progress = progressReporter(out, total);
  const { stream, done } = await openExport(db, { ...exportFilter, format, limit: options.limit });

  let rows = 0;
  // Appending to a CSV file: its header is already there.
  let skipHeader = point !== null && format === 'csv';
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      let data = chunk;
      if (skipHeader) {
        const newline = data.indexOf(10);
        if (newline === -1) return callback();
        data = data.subarray(newline + 1);
        skipHeader = false;
      }
      rows += countLines(data);
      progress.update(Math.min(rows, total));
      callback(null, data);
    },
  });
  try {
    await pipeline(stream, counter, createWriteStream(options.out, { flags: point ? 'a' : 'w' }));
  } finally {
    progress.stop();
  }
  const { summary } = await done;
  if (!summary) throw new Error('the export stopped before its end: run again with --resume');
  out.write(
    summary.complete
      ? `exported ${summary.rows} ${filter.dataset} rows to ${options.out}\n`
      : `exported ${summary.rows} ${filter.dataset} rows to ${options.out}; more remain: run again with --resume\n`,
  );
}

interface Progress {
  update(rows: number): void;
  stop(): void;
}

function progressReporter(out: NodeJS.WriteStream, total: number): Progress {
  if (out.isTTY) {
    const bar = new cliProgress.SingleBar(
      { stream: out, format: 'export [{bar}] {percentage}% | {value}/{total} rows | {eta_formatted} left' },
      cliProgress.Presets.shades_classic,
    );
    bar.start(total, 0);
    return { update: (rows) => bar.update(rows), stop: () => bar.stop() };
  }
  // Not a terminal (CI, a log file): a line every few seconds instead of a redrawn bar.
  let last = Date.now();
  out.write(`exporting ${total} rows\n`);
  return {
    update(rows) {
      const now = Date.now();
      if (now - last < 5000) return;
      last = now;
      out.write(`exported ${rows}/${total} rows (${total ? Math.floor((rows / total) * 100) : 100}%)\n`);
    },
    stop() {},
  };
}
