import { loadConfig } from '@mdq/config';
import type { Db } from '@mdq/db';
import type { Command } from 'commander';
import { UsageError } from '../runtime/fail';

export function keysCommand(program: Command): void {
  const keys = program.command('keys').description('Create, list and revoke API keys (stored hashed)');

  keys
    .command('create')
    .description('Create a key and print it once')
    .option('--name <name>', 'who the key is for', 'default')
    .option('--rate-limit <perMinute>', 'requests per minute for this key (default: MDQ_RATE_LIMIT)')
    .action(async (opts: { name: string; rateLimit?: string }) => {
      const rate = opts.rateLimit === undefined ? null : Number(opts.rateLimit);
      if (rate !== null && (!Number.isInteger(rate) || rate < 1)) {
        throw new UsageError(`--rate-limit must be a positive integer (got "${opts.rateLimit}")`);
      }
      await withDb(async (db) => {
        const { createApiKey } = await import('@mdq/db');
        const { key, keyId } = await createApiKey(db, { name: opts.name, rateLimitPerMinute: rate });
        console.log(`key id: ${keyId}\napi key: ${key}\n(store it now: only its hash is kept)`);
      });
    });

  keys
    .command('list')
    .description('List keys (ids and names, never the keys)')
    .action(async () => {
      await withDb(async (db) => {
        const { listApiKeys } = await import('@mdq/db');
        const rows = await listApiKeys(db);
        for (const k of rows) {
          const state = k.revokedAt ? `revoked ${k.revokedAt.toISOString()}` : 'active';
          console.log(`${k.keyId}\t${k.name}\t${k.rateLimitPerMinute ?? 'default'}/min\t${state}`);
        }
        if (rows.length === 0) console.log('no keys');
      });
    });

  keys
    .command('revoke')
    .description('Revoke a key by its id')
    .argument('<keyId>', 'the id shown by `keys list`')
    .action(async (keyId: string) => {
      await withDb(async (db) => {
        const { revokeApiKey } = await import('@mdq/db');
        if (!(await revokeApiKey(db, keyId))) throw new UsageError(`no active key with id "${keyId}"`);
        console.log(`revoked ${keyId}`);
      });
    });
}

export async function withDb(fn: (db: Db) => Promise<void>): Promise<void> {
  const { resolveDatabase } = await import('../runtime/database');
  const database = await resolveDatabase(loadConfig(), { mayStart: true, migrate: true });
  try {
    await fn(database.db);
  } finally {
    await database.close();
  }
}
