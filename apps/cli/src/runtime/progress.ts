import { Presets, SingleBar } from 'cli-progress';

export interface IndexerProgress {
  /** After each committed batch: the newest committed version and how many transactions it held. */
  update(lastVersion: number, transactions: number): void;
  stop(): void;
}

export interface ProgressOptions {
  /** What the run is heading for: `--to`, or the chain tip seen at start. */
  target: number;
  label: string;
  /** A bar on a terminal; plain lines every `everyMs` otherwise (logs, CI, pipes). */
  tty: boolean;
  stream?: NodeJS.WriteStream;
  everyMs?: number;
  now?: () => number;
}

/**
 * Versions per second and the time left for a backfill or a catching-up indexer. The rate is taken
 * over the whole run so far: batches vary too much for an instant rate to give a steady ETA.
 */
export function indexerProgress(options: ProgressOptions): IndexerProgress {
  const stream = options.stream ?? process.stderr;
  const now = options.now ?? Date.now;
  let start: { version: number; at: number } | null = null;
  let lastLine = 0;
  let current = 0;
  const bar = options.tty
    ? new SingleBar(
        {
          format: `${options.label} [{bar}] {percentage}% | {value}/{total} | {rate} versions/s | ETA {eta_formatted}`,
          stream,
          etaBuffer: 50,
          hideCursor: true,
          clearOnComplete: false,
        },
        Presets.shades_classic,
      )
    : null;

  const rate = () => {
    if (!start) return 0;
    const seconds = (now() - start.at) / 1000;
    return seconds > 0 ? (current - start.version) / seconds : 0;
  };

  return {
    update(lastVersion, transactions) {
      if (!start) {
        start = { version: lastVersion - transactions, at: now() };
        bar?.start(options.target, Math.max(0, lastVersion), { rate: '0' });
      }
      current = lastVersion;
      const perSecond = rate();
      if (bar) {
        bar.setTotal(Math.max(options.target, lastVersion));
        bar.update(lastVersion, { rate: Math.round(perSecond).toLocaleString('en-US') });
        return;
      }
      if (now() - lastLine < (options.everyMs ?? 10_000) && lastVersion < options.target) return;
      lastLine = now();
      const left = Math.max(0, options.target - lastVersion);
      const eta = perSecond > 0 ? `${Math.ceil(left / perSecond)} s` : 'unknown';
      const share = options.target > 0 ? Math.min(100, (100 * lastVersion) / options.target) : 100;
      stream.write(
        `${options.label}: version ${lastVersion} of ${options.target} (${share.toFixed(1)}%), ` +
          `${Math.round(perSecond)} versions/s, ETA ${eta}\n`,
      );
    },
    stop() {
      bar?.stop();
    },
  };
}
