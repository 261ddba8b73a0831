import { createApiKey } from '@mdq/db';
import type { DevnetFacts, TokenFacts } from '@mdq/devnet';
import { createIndexedDatabase, type IndexedDatabase } from '@mdq/indexer/testing';
import { createLogger } from '@mdq/log';
import { startWorker, type WorkerHandle } from '@mdq/worker';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/index';

/*
 * Token metadata as the API answers it, over a devnet chain whose documents the devnet serves and
 * the in-process worker crawls (as in `mdq start`): image, animationUrl and the metadata state in
 * token answers (a failed document says why, never a 5xx), each trait's source, and
 * refresh-metadata bringing a document edited at the source into the token's traits.
 */
describe('token metadata in the API', () => {
  let indexed: IndexedDatabase;
  let facts: DevnetFacts;
  let worker: WorkerHandle;
  let app: FastifyInstance;
  let key: string;

  const inject = (method: 'GET' | 'POST', path: string, payload?: unknown, apiKey = key) =>
    app.inject({
      method,
      url: `/local/api${path}`,
      headers: { 'x-api-key': apiKey },
      ...(payload ? { payload } : {}),
    });
  const q = encodeURIComponent;
  const collectionOf = (source: string) => {
    const c = facts.collections.find((x) => x.traitSource === source);
    if (!c) throw new Error(`no ${source} collection`);
    return c;
  };
  const traitsOf = async (t: TokenFacts, creator: string, collection: string) => {
    const res = await inject(
      'GET',
      `/token/traits?creator=${creator}&collection=${q(collection)}&tokenName=${q(t.name)}`,
    );
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json().data as { traits: { traitType: string; value: string; source: string }[] };
    return Object.fromEntries(body.traits.map((x) => [x.traitType, `${x.value} [${x.source}]`]));
  };
  /** Polls until the crawl the worker runs in the background has produced what `check` asserts. */
  const eventually = async (check: () => Promise<void>) => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      try {
        return await check();
      } catch (err) {
        if (Date.now() > deadline) throw err;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  };

  beforeAll(async () => {
    indexed = await createIndexedDatabase({ seed: 3, preset: 'tiny' });
    facts = indexed.facts;
    worker = await startWorker({
      db: indexed.db,
      redisUrl: null,
      schedules: false,
      logger: createLogger({ level: 'silent' }),
      uri: {
        ipfsGateways: [],
        arweaveGateway: 'https://arweave.invalid/',
        trustedOrigins: [indexed.devnet.origin],
      },
      // Long enough for every good document on a loaded machine; the slow URI (30 s) still times out.
      metadata: { timeoutMs: 8_000, retryDelayMs: 50, hostIntervalMs: 1 },
    });
    app = await buildApp({
      db: indexed.db,
      network: 'local',
      requestMetadataCrawl: worker.requestMetadataCrawl,
    });
    key = (await createApiKey(indexed.db, { name: 'metadata' })).key;
    for (const c of facts.collections) await worker.requestMetadataCrawl(c.collectionId);
    await eventually(async () => {
      const { count } = await indexed.db
        .selectFrom('metadata_documents')
        .select((eb) => eb.fn.countAll<string>().as('count'))
        .executeTakeFirstOrThrow();
      const tokens = Object.values(facts.tokens).reduce((n, list) => n + list.length, 0);
      expect(Number(count)).toBeGreaterThanOrEqual(tokens + facts.collections.length);
    });
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    await worker?.close();
    await indexed?.close();
  });

  it("token answers carry the document's image and state; a failed document says why", async () => {
    const c = collectionOf('document');
    const res = await inject(
      'GET',
      `/tokens-by-collection?creator=${c.creator}&collection=${q(c.name)}&limit=50`,
    );
    expect(res.statusCode, res.body).toBe(200);
    type Row = {
      tokenName: string;
      tokenUri: string;
      image: string | null;
      animationUrl: string | null;
      metadata: { status: string; error: string | null; valid: boolean | null };
    };
    const rows = new Map((res.json().data as Row[]).map((r) => [r.tokenName, r]));
    const tokens = facts.tokens[c.collectionId] ?? [];
    expect(tokens.some((t) => t.metadataFault !== null)).toBe(true);
    for (const t of tokens.filter((x) => rows.has(x.name))) {
      const row = rows.get(t.name) as Row;
      if (t.metadataFault === null) {
        expect([t.name, row.image, row.animationUrl, row.metadata.status, row.metadata.valid]).toEqual([
          t.name,
          row.tokenUri.replace(/\.json$/, '.png'),
          null,
          'ok',
          true,
        ]);
      } else {
        expect([t.name, row.image, row.metadata.status]).toEqual([t.name, null, 'error']);
        expect(row.metadata.error).toMatch(/HTTP 404|not JSON|timed out|larger than|private address/);
      }
    }
  });

  it('token/traits merges both sources: the document fills in, the chain wins the conflict', async () => {
    const c = collectionOf('both');
    const conflict = c.conflictTrait as string;
    const t = (facts.tokens[c.collectionId] ?? []).find(
      (x) => x.documentTraits?.[conflict] !== undefined && x.documentTraits[conflict] !== x.traits[conflict],
    ) as TokenFacts;
    expect(await traitsOf(t, c.creator, c.name)).toEqual(
      Object.fromEntries(
        Object.entries(t.expectedTraits).map(([k, v]) => [
          k,
          `${v} [${k in t.traits ? 'chain' : 'document'}]`,
        ]),
      ),
    );
    expect(t.expectedTraits[conflict]).toBe(t.traits[conflict]);
  });

  it('refresh-metadata brings an edited document into the token: 202, then its traits', async () => {
    const c = collectionOf('document');
    const t = (facts.tokens[c.collectionId] ?? []).find(
      (x) => x.metadataFault === null && Object.keys(x.expectedTraits).length > 0,
    ) as TokenFacts;
    const row = await indexed.db
      .selectFrom('tokens')
      .select('token_uri')
      .where('token_data_id', '=', t.tokenId)
      .executeTakeFirstOrThrow();
    const revision = indexed.devnet.metadata?.revise(row.token_uri as string);
    const served = (await (await fetch(row.token_uri as string)).json()) as {
      attributes: { trait_type: string; value: string }[];
    };
    expect(served.attributes.some((a) => a.value.endsWith(`(rev ${revision})`))).toBe(true);

    const res = await inject('POST', '/refresh-metadata', { tokenId: t.tokenId });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json().data).toEqual({
      scope: 'token',
      collectionId: c.collectionId,
      tokenId: t.tokenId,
      marked: 1,
      queued: true,
    });
    await eventually(async () => {
      expect(await traitsOf(t, c.creator, c.name)).toEqual(
        Object.fromEntries(served.attributes.map((a) => [a.trait_type, `${a.value} [document]`])),
      );
    });
  });

  it('refresh-metadata: a whole collection, unknown ids, bad bodies and its rate limit', async () => {
    const c = collectionOf('chain');
    const collection = await inject('POST', '/refresh-metadata', { collectionId: c.collectionId });
    expect(collection.statusCode, collection.body).toBe(202);
    expect(collection.json().data).toMatchObject({ scope: 'collection', tokenId: null, queued: true });
    expect(collection.json().data.marked).toBe((facts.tokens[c.collectionId] ?? []).length + 1);

    const missing = await inject('POST', '/refresh-metadata', { tokenId: `0x${'ab'.repeat(32)}` });
    expect([missing.statusCode, missing.json().error?.code ?? missing.json().code]).toEqual([
      404,
      'TOKEN_NOT_FOUND',
    ]);
    for (const body of [{}, { tokenId: 'not-an-address' }, { tokenId: '0x1', collectionId: '0x2' }]) {
      expect((await inject('POST', '/refresh-metadata', body)).statusCode, JSON.stringify(body)).toBe(400);
    }

    const other = (await createApiKey(indexed.db, { name: 'refresher' })).key;
    const codes: number[] = [];
    for (let i = 0; i < 11; i++) {
      codes.push(
        (await inject('POST', '/refresh-metadata', { collectionId: c.collectionId }, other)).statusCode,
      );
    }
    expect(codes).toEqual([...Array(10).fill(202), 429]);
  });
});
