import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, ensureApiKey, findActiveApiKey, listApiKeys, revokeApiKey } from '../src/index';
import { createTestDatabase, type TestDatabase } from '../src/testing';

describe('api keys', () => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase();
  });
  afterAll(() => test.drop());

  it('stores only a hash and finds the key by its full value', async () => {
    const { key, keyId } = await createApiKey(test.db, { name: 'front end', rateLimitPerMinute: 60 });
    expect(key).toMatch(/^mdq_[0-9a-f]{8}_/);
    const stored = await test.db
      .selectFrom('api_keys')
      .selectAll()
      .where('key_id', '=', keyId)
      .executeTakeFirst();
    expect(stored?.key_hash).not.toContain(key);
    expect(await findActiveApiKey(test.db, key)).toEqual({ keyId, rateLimitPerMinute: 60 });
    expect(await findActiveApiKey(test.db, `${key}x`)).toBeUndefined();
  });

  it('revokes by id', async () => {
    const { key, keyId } = await createApiKey(test.db, { name: 'temp' });
    expect(await revokeApiKey(test.db, keyId)).toBe(true);
    expect(await revokeApiKey(test.db, keyId)).toBe(false);
    expect(await findActiveApiKey(test.db, key)).toBeUndefined();
    expect((await listApiKeys(test.db)).find((k) => k.keyId === keyId)?.revokedAt).toBeInstanceOf(Date);
  });

  it('ensures an operator key idempotently and revives it after a revoke', async () => {
    const key = 'demo-key-0123456789abcdef';
    await ensureApiKey(test.db, key, 'env');
    await ensureApiKey(test.db, key, 'env');
    const found = await findActiveApiKey(test.db, key);
    expect(found).toBeDefined();
    await revokeApiKey(test.db, found!.keyId);
    await ensureApiKey(test.db, key, 'env');
    expect(await findActiveApiKey(test.db, key)).toBeDefined();
  });
});
