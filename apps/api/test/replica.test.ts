import { createApiKey } from '@mdq/db';
import { createTestDatabase, type TestDatabase } from '@mdq/db/testing';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/index';
import { addr, Fixtures } from './support/fixtures';

/*
 * Scaling out: API replicas read from DATABASE_READ_URL and keep keys on the primary. Two databases
 * stand in for primary and replica, with the data only on the "replica": a data route that read
 * the primary would find nothing.
 */
describe('reads from the replica, keys from the primary', () => {
  let primary: TestDatabase;
  let replica: TestDatabase;
  let app: FastifyInstance;
  let key: string;

  beforeAll(async () => {
    primary = await createTestDatabase();
    replica = await createTestDatabase();
    key = (await createApiKey(primary.db, { name: 'replica test' })).key;
    const fx = new Fixtures(replica.db);
    await fx.collection({ id: addr(0xc0), creator: addr(0xc1), name: 'Replica Apes' });
    await fx.lootbox({
      id: 7,
      creator: addr(0xc1),
      name: 'Replica Apes',
      collectionId: addr(0xc0),
      mintStart: '2020-01-01T00:00:00Z',
    });
    app = await buildApp({ db: primary.db, readDb: replica.db, network: 'local' });
  });
  afterAll(async () => {
    await app.close();
    await primary.drop();
    await replica.drop();
  });

  it('serves data that only the replica holds, authenticated against the primary', async () => {
    const res = await app.inject({
      url: `/local/api/lootbox?creator=${addr(0xc1)}&collection=Replica%20Apes`,
      headers: { 'x-api-key': key },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ lootboxId: 7, collection: 'Replica Apes' });
  });

  it('does not accept a key that exists only on the replica', async () => {
    const replicaOnly = (await createApiKey(replica.db, { name: 'not on primary' })).key;
    const res = await app.inject({
      url: '/local/api/rankings/recent-added',
      headers: { 'x-api-key': replicaOnly },
    });
    expect(res.statusCode).toBe(401);
  });
});
