import { createApiKey, revokeApiKey } from '@mdq/db';
import { createTestDatabase, type TestDatabase } from '@mdq/db/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/index';
import { MAX_API_KEY_LENGTH } from '../src/plugins/auth';

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('API keys: revocation, invalid keys, bounded cache', () => {
  let test: TestDatabase;
  let app: FastifyInstance;

  beforeAll(async () => {
    test = await createTestDatabase();
    // A cache that would trust a valid key for an hour: only the revocation notice can end it.
    app = await buildApp({
      db: test.db,
      network: 'local',
      apiKeys: {
        listenUrl: test.url,
        validTtlMs: 3_600_000,
        unlistenedTtlMs: 3_600_000,
        invalid: { perMinute: 20 },
      },
    });
  });
  afterAll(async () => {
    await app.close();
    await test.drop();
  });

  const status = async (url: string, key: string, ip = '10.0.0.1') =>
    (await app.inject({ url, headers: { 'x-api-key': key }, remoteAddress: ip })).statusCode;

  it('stops a revoked key on both path prefixes as soon as the revocation commits', async () => {
    const { key, keyId } = await createApiKey(test.db, { name: 'revoked soon' });
    // Wait for the listener, then warm the cache on both prefixes.
    await until('the key to be served', async () => (await status('/local/api/whoami', key)) === 200);
    expect(await status('/local/whoami', key)).toBe(200);
    expect(await revokeApiKey(test.db, keyId)).toBe(true);
    await until(
      'the revoked key to be refused on both prefixes',
      async () =>
        (await status('/local/api/whoami', key)) === 401 && (await status('/local/whoami', key)) === 401,
    );
  });

  it('limits unknown keys per client address, and not other clients', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 25; i++)
      codes.push(await status('/local/api/whoami', `mdq_00000000_guess${i}`, '10.9.9.9'));
    expect(codes.slice(0, 20).every((c) => c === 401)).toBe(true);
    expect(codes.slice(20).every((c) => c === 429)).toBe(true);
    const limited = await app.inject({
      url: '/local/api/whoami',
      headers: { 'x-api-key': 'mdq_00000000_guess' },
      remoteAddress: '10.9.9.9',
    });
    expect(limited.json()).toMatchObject({ statusCode: 429, code: 'RATE_LIMITED' });
    expect(await status('/local/api/whoami', 'mdq_00000000_other', '10.9.9.10')).toBe(401);
  });

  it('refuses an over-long key with 401 before any lookup', async () => {
    const res = await app.inject({
      url: '/local/api/whoami',
      headers: { 'x-api-key': 'k'.repeat(MAX_API_KEY_LENGTH + 1) },
      remoteAddress: '10.1.1.1',
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('INVALID_API_KEY');
  });
});
