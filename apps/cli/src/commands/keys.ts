import { loadConfig, parseOrigin } from '@mdq/config';
import type { Db } from '@mdq/db';
import type { Command } from 'commander';
import { UsageError } from '../runtime/fail';

export function keysCommand(program: Command): void {
  const keys = program.command('keys').description('Create, list and revoke API keys (stored hashed)');

  keys
    .command('create')
    .description(
      'Create a key and print it once: a secret key (servers, every route) or, with --publishable, a key for browser pages',
    )
    .option('--name <name>', 'who the key is for', 'default')
    .option(
      '--rate-limit <perMinute>',
      'requests per minute for this key (default: MDQ_RATE_LIMIT; publishable: MDQ_PUBLISHABLE_RATE_LIMIT per visitor)',
    )
    .option(
      '--publishable',
      'a key to put in a web page: accepted only from the --origin pages, on read routes only',
    )
    .option(
      '--origin <origins...>',
      'publishable key: the page origins it works from (https://market.example, https://*.market.example)',
    )
    .action(async (opts: { name: string; rateLimit?: string; publishable?: boolean; origin?: string[] }) => {
      const rate = opts.rateLimit === undefined ? null : Number(opts.rateLimit);
      if (rate !== null && (!Number.isInteger(rate) || rate < 1)) {
        throw new UsageError(`--rate-limit must be a positive integer (got "${opts.rateLimit}")`);
      }
      const origins = originsOf(opts);
      await withDb(async (db) => {
        const { createApiKey } = await import('@mdq/db');
        const { key, keyId } = await createApiKey(db, {
          name: opts.name,
          rateLimitPerMinute: rate,
          ...(origins ? { publishableOrigins: origins } : {}),
        });
        const kind = origins ? `publishable key (origins ${origins.join(', ')})` : 'api key';
        console.log(`key id: ${keyId}\n${kind}: ${key}\n(store it now: only its hash is kept)`);
      });
    });

  keys
    .command('list')
    .description(
      "List keys: id, name, kind, rate limit, state and a publishable key's origins (never the keys)",
    )
    .action(async () => {
      await withDb(async (db) => {
        const { listApiKeys } = await import('@mdq/db');
        const rows = await listApiKeys(db);
        for (const k of rows) {
          const state = k.revokedAt ? `revoked ${k.revokedAt.toISOString()}` : 'active';
          const origins = k.kind === 'publishable' ? `\t${k.origins.join(',')}` : '';
          console.log(
            `${k.keyId}\t${k.name}\t${k.kind}\t${k.rateLimitPerMinute ?? 'default'}/min\t${state}${origins}`,
          );
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

/** The publishable key's origins, normalised; undefined for a secret key. Mistakes are usage errors. */
function originsOf(opts: { publishable?: boolean; origin?: string[] }): string[] | undefined {
  if (!opts.publishable) {
    if (opts.origin) throw new UsageError('--origin is for publishable keys: add --publishable');
    return undefined;
  }
  if (!opts.origin?.length) {
    throw new UsageError('a publishable key needs at least one --origin (the page that may use it)');
  }
  return opts.origin.map((value) => {
    const parsed = parseOrigin(value);
    if ('problem' in parsed) throw new UsageError(`--origin ${parsed.problem}`);
    return parsed.origin;
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
