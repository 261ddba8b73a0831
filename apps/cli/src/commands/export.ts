import { isAddress, normalizeAddress } from '@mdq/chain/address';
import { loadConfig } from '@mdq/config';
import type { Command } from 'commander';
import { UsageError } from '../runtime/fail';

interface ExportOptions {
  out: string;
  format: string;
  collectionId?: string;
  creator?: string;
  collection?: string;
  wallet?: string;
  fromVersion?: string;
  toVersion?: string;
  limit?: string;
  resume?: boolean;
}

function address(value: string | undefined, flag: string): string | undefined {
  if (value === undefined) return undefined;
  if (!isAddress(value)) throw new UsageError(`${flag} must be a 0x-prefixed hex address (got "${value}")`);
  return normalizeAddress(value);
}

function integer(value: string | undefined, flag: string, min: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < min)
    throw new UsageError(`${flag} must be an integer ≥ ${min} (got "${value}")`);
  return n;
}

export function exportCommand(program: Command): void {
  program
    .command('export')
    .description('Export a dataset to a file (NDJSON or CSV), streamed from one database snapshot')
    .argument('<dataset>', 'sales, activities, listings, offers, tokens, ownerships or collections')
    .requiredOption('--out <file>', 'file to write')
    .option('--format <format>', 'ndjson or csv', 'ndjson')
    .option('--collection-id <id>', 'rows of this collection')
    .option('--creator <address>', 'collection creator (with --collection)')
    .option('--collection <name>', 'collection name (with --creator)')
    .option('--wallet <address>', 'rows of this wallet')
    .option('--from-version <n>', 'first chain version, inclusive')
    .option('--to-version <n>', 'last chain version, inclusive')
    .option('--limit <n>', 'at most this many rows')
    .option('--resume', 'continue a file that an earlier run left incomplete')
    .action(async (dataset: string, opts: ExportOptions) => {
      const { EXPORT_DATASET_NAMES } = await import('@mdq/db/export');
      const name = EXPORT_DATASET_NAMES.find((d) => d === dataset);
      if (!name)
        throw new UsageError(`unknown dataset "${dataset}": one of ${EXPORT_DATASET_NAMES.join(', ')}`);
      if (opts.format !== 'ndjson' && opts.format !== 'csv') {
        throw new UsageError(`--format must be ndjson or csv (got "${opts.format}")`);
      }
      if ((opts.creator === undefined) !== (opts.collection === undefined)) {
        throw new UsageError('--creator and --collection go together');
      }
      const { runExport } = await import('../run/export');
      const { resolveDatabase } = await import('../runtime/database');
      const database = await resolveDatabase(loadConfig(), { mayStart: true, migrate: true });
      try {
        await runExport(database.db, {
          out: opts.out,
          resume: opts.resume === true,
          filter: {
            dataset: name,
            collectionId: address(opts.collectionId, '--collection-id'),
            creator: address(opts.creator, '--creator'),
            collection: opts.collection,
            wallet: address(opts.wallet, '--wallet'),
            fromVersion: integer(opts.fromVersion, '--from-version', 0),
            toVersion: integer(opts.toVersion, '--to-version', 0),
          },
          format: opts.format,
          limit: integer(opts.limit, '--limit', 1) ?? null,
        });
      } finally {
        await database.close();
      }
    });
}
