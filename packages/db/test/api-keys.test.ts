import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createApiKey,
  ensureApiKey,
  findActiveApiKey,
  listApiKeys,
  publishableKeyOrigins,
  revokeApiKey,
} from '../src/index';
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
    expect(await findActiveApiKey(test.db, key)).toEqual({
      keyId,
      kind: 'secret',
      origins: [],
      rateLimitPerMinute: 60,
    });
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

  it('keeps a publishable key with its origins, and lists the origins of active ones only', async () => {
    const origins = ['https://market.example', 'https://*.preview.market.example'];
    const { key, keyId } = await createApiKey(test.db, { name: 'page', publishableOrigins: origins });
    expect(key).toMatch(/^mdq_pk_[0-9a-f]{8}_/);
    expect(key.slice(7, 15)).toBe(keyId);
    expect(await findActiveApiKey(test.db, key)).toEqual({
      keyId,
      kind: 'publishable',
      origins,
      rateLimitPerMinute: null,
    });
    const gone = await createApiKey(test.db, {
      name: 'old page',
      publishableOrigins: ['https://old.example'],
    });
    await revokeApiKey(test.db, gone.keyId);
    expect((await publishableKeyOrigins(test.db)).sort()).toEqual([...origins].sort());
    expect((await listApiKeys(test.db)).find((k) => k.keyId === keyId)).toMatchObject({
      kind: 'publishable',
      origins,
    });
  });

  it('refuses a publishable key without origins (the table constraint)', async () => {
    await expect(createApiKey(test.db, { name: 'nowhere', publishableOrigins: [] })).rejects.toThrow(
      /api_keys_kind_origins/,
    );
  });
});
