import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../database';

export interface ApiKeyRecord {
  keyId: string;
  name: string;
  rateLimitPerMinute: number | null;
  createdAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
}

/** Keys are shown once at creation; only a SHA-256 of the full key is stored. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

/** `mdq_<keyId>_<secret>`: the id part lets an operator name a key in logs without revealing it. */
export function generateApiKey(): { key: string; keyId: string } {
  const keyId = randomBytes(4).toString('hex');
  return { key: `mdq_${keyId}_${randomBytes(24).toString('base64url')}`, keyId };
}

export async function createApiKey(
  db: Db,
  options: { name: string; rateLimitPerMinute?: number | null; key?: string },
): Promise<{ key: string; keyId: string }> {
  const generated = options.key ? { key: options.key, keyId: keyIdOf(options.key) } : generateApiKey();
  await db
    .insertInto('api_keys')
    .values({
      key_id: generated.keyId,
      key_hash: hashApiKey(generated.key),
      name: options.name,
      rate_limit_per_minute: options.rateLimitPerMinute ?? null,
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
  const match = /^mdq_([0-9a-f]{8})_/.exec(key);
  return match?.[1] ?? `env-${hashApiKey(key).slice(0, 8)}`;
}

export async function findActiveApiKey(
  db: Db,
  key: string,
): Promise<{ keyId: string; rateLimitPerMinute: number | null } | undefined> {
  const row = await db
    .selectFrom('api_keys')
    .select(['key_id', 'rate_limit_per_minute'])
    .where('key_hash', '=', hashApiKey(key))
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return row ? { keyId: row.key_id, rateLimitPerMinute: row.rate_limit_per_minute } : undefined;
}

export async function listApiKeys(db: Db): Promise<ApiKeyRecord[]> {
  const rows = await db.selectFrom('api_keys').selectAll().orderBy('created_at').execute();
  return rows.map((r) => ({
    keyId: r.key_id,
    name: r.name,
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
