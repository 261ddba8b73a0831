import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../database';
import type { ApiKeyKind } from '../schema';

export interface ApiKeyRecord {
  keyId: string;
  name: string;
  kind: ApiKeyKind;
  /** A publishable key's origins; empty for a secret key. */
  origins: string[];
  rateLimitPerMinute: number | null;
  createdAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
}

/** Keys are shown once at creation; only a SHA-256 of the full key is stored. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/**
 * `mdq_<keyId>_<secret>`, or `mdq_pk_<keyId>_<secret>` for a publishable key: the id part lets an
 * operator name a key in logs without revealing it, and the `pk_` tells a reader of a page's source
 * (or a secret scanner) that the key there is meant to be public.
 */
export function generateApiKey(kind: ApiKeyKind = 'secret'): { key: string; keyId: string } {
  const keyId = randomBytes(4).toString('hex');
  const prefix = kind === 'publishable' ? 'mdq_pk_' : 'mdq_';
  return { key: `${prefix}${keyId}_${randomBytes(24).toString('base64url')}`, keyId };
}

export async function createApiKey(
  db: Db,
  options: {
    name: string;
    rateLimitPerMinute?: number | null;
    key?: string;
    /** Publishable: the browser origins it is accepted from (at least one; see @mdq/config parseOrigin). */
    publishableOrigins?: string[];
  },
): Promise<{ key: string; keyId: string }> {
  const kind: ApiKeyKind = options.publishableOrigins ? 'publishable' : 'secret';
  const generated = options.key ? { key: options.key, keyId: keyIdOf(options.key) } : generateApiKey(kind);
  await db
    .insertInto('api_keys')
    .values({
      key_id: generated.keyId,
      key_hash: hashApiKey(generated.key),
      name: options.name,
      rate_limit_per_minute: options.rateLimitPerMinute ?? null,
      kind,
      allowed_origins: options.publishableOrigins ?? [],
    })
    .execute();
  return generated;
}

/** Makes sure a key chosen by the operator (MDQ_API_KEY) exists and is not revoked. */
export async function ensureApiKey(db: Db, key: string, name: string): Promise<void> {
  await db
    .insertInto('api_keys')
    .values({ key_id: keyIdOf(key), key_hash: hashApiKey(key), name, rate_limit_per_minute: null })
    .onConflict((oc) => oc.column('key_hash').doUpdateSet({ revoked_at: null }))
    .execute();
}

/** An operator-chosen key may not follow our format; its id is then derived from its hash. */
function keyIdOf(key: string): string {
  const match = /^mdq_(?:pk_)?([0-9a-f]{8})_/.exec(key);
  return match?.[1] ?? `env-${hashApiKey(key).slice(0, 8)}`;
}

export type ActiveApiKey = Pick<ApiKeyRecord, 'keyId' | 'kind' | 'origins' | 'rateLimitPerMinute'>;

export async function findActiveApiKey(db: Db, key: string): Promise<ActiveApiKey | undefined> {
  const row = await db
    .selectFrom('api_keys')
    .select(['key_id', 'kind', 'allowed_origins', 'rate_limit_per_minute'])
    .where('key_hash', '=', hashApiKey(key))
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return row
    ? {
        keyId: row.key_id,
        kind: row.kind,
        origins: row.allowed_origins,
        rateLimitPerMinute: row.rate_limit_per_minute,
      }
    : undefined;
}

/**
 * Every origin some active publishable key lists: a browser's CORS preflight carries no key, so
 * the API allows these origins for any request and checks the key's own list when the key comes.
 */
export async function publishableKeyOrigins(db: Db): Promise<string[]> {
  const rows = await db
    .selectFrom('api_keys')
    .select(sql<string>`unnest(allowed_origins)`.as('origin'))
    .where('kind', '=', 'publishable')
    .where('revoked_at', 'is', null)
    .distinct()
    .execute();
  return rows.map((r) => r.origin);
}

export async function listApiKeys(db: Db): Promise<ApiKeyRecord[]> {
  const rows = await db.selectFrom('api_keys').selectAll().orderBy('created_at').execute();
  return rows.map((r) => ({
    keyId: r.key_id,
    name: r.name,
    kind: r.kind,
    origins: r.allowed_origins,
    rateLimitPerMinute: r.rate_limit_per_minute,
    createdAt: r.created_at,
    revokedAt: r.revoked_at,
    lastUsedAt: r.last_used_at,
  }));
}

/** The channel on which a revocation is announced to every API process (see api-key-events.ts). */
export const API_KEY_REVOKED_CHANNEL = 'mdq_api_key_revoked';

/**
 * Returns false when no active key has that id. The NOTIFY is sent in the same transaction, so
 * every listening API drops its cached entry for the key as soon as the revocation commits.
 */
export async function revokeApiKey(db: Db, keyId: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable('api_keys')
      .set({ revoked_at: new Date() })
      .where('key_id', '=', keyId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    const revoked = Number(result.numUpdatedRows) > 0;
    if (revoked) await sql`SELECT pg_notify(${API_KEY_REVOKED_CHANNEL}, ${keyId})`.execute(trx);
    return revoked;
  });
}
