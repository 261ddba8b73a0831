import { readFile } from 'node:fs/promises';
import { buildApp } from '@mdq/api';
import { createApiKey } from '@mdq/db';
import { createIndexedDatabase, type IndexedDatabase } from '@mdq/indexer/testing';
import { recomputeAll } from '@mdq/worker';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiDocument, GENERATED, renderTypes } from '../scripts/render';
import { createMdqClient, type MdqClient } from '../src/index';

interface Param {
  name: string;
  in: string;
  required?: boolean;
  schema?: { type?: string; enum?: unknown[]; anyOf?: { enum?: unknown[]; const?: unknown }[] };
}
type Operation = { parameters?: Param[]; requestBody?: unknown; responses: Record<string, unknown> };
type Doc = { paths: Record<string, Record<string, Operation | unknown>> };

describe('the typed client', () => {
  it('matches the live OpenAPI document (regenerate with `pnpm --filter @mdq/client generate`)', async () => {
    const expected = await renderTypes(await apiDocument());
    const checkedIn = await readFile(GENERATED, 'utf8');
    expect(checkedIn === expected, 'packages/client/src/openapi.ts is out of date: run the generator').toBe(
      true,
    );
  });

  describe('against a running API on an indexed devnet chain', () => {
    let indexed: IndexedDatabase;
    let app: FastifyInstance;
    let client: MdqClient;
    let doc: Doc;

    beforeAll(async () => {
      indexed = await createIndexedDatabase({ seed: 3, preset: 'tiny', endTimeMs: Date.now() });
      await recomputeAll(indexed.db, new Date(Number(BigInt(indexed.facts.chain.nowUs) / 1000n)));
      app = await buildApp({ db: indexed.db, network: 'local' });
      const url = await app.listen({ host: '127.0.0.1', port: 0 });
      const { key } = await createApiKey(indexed.db, { name: 'client' });
      client = createMdqClient({ baseUrl: url, network: 'local', apiKey: key });
      doc = (await apiDocument()) as Doc;
    }, 240_000);
    afterAll(async () => {
      await app?.close();
      await indexed?.close();
    });

    it('answers a typed call with typed data', async () => {
      const { data, error, response } = await client.GET('/api/rankings/trending-collections', {
        params: { query: { limit: 10 } },
      });
      expect(error).toBeUndefined();
      expect(response.status).toBe(200);
      expect(data?.pagination.limit).toBe(10);
      expect(data?.data.length).toBeGreaterThan(0);
    });

    it('reaches every endpoint of the document and gets a 200 from each', async () => {
      const { facts } = indexed;
      // Real entities of the chain, chosen from the generator's facts.
      const plain = facts.collections.find(
        (c) => c.lootboxId === null && (facts.tokens[c.collectionId]?.length ?? 0) > 0,
      );
      const boxed = facts.collections.find((c) => c.lootboxId !== null);
      const lootbox = facts.lootboxes.find((l) => l.collectionId === boxed?.collectionId);
      const token = plain ? facts.tokens[plain.collectionId]?.[0] : undefined;
      const holder = facts.users.find((u) => u.tokensHeld > 0);
      if (!plain || !boxed || !lootbox || !token || !holder)
        throw new Error('the devnet chain lacks an entity kind');
      const values = (path: string): Record<string, string | number | boolean> => {
        const c = path.includes('lootbox') ? boxed : plain;
        return {
          address: holder.address,
          creator: c.creator,
          creatorAddress: c.creator,
          collection: c.name,
          collectionName: c.name,
          lootboxId: lootbox.lootboxId,
          tokenId: token.tokenId,
          tokenName: token.name,
          tokenStandard: plain.standard,
          propertyVersion: 0,
          text: plain.name.slice(0, 3),
        };
      };
      const sample = (param: Param, path: string) => {
        const known = values(path)[param.name];
        if (known !== undefined) return known;
        const choices = param.schema?.enum ?? param.schema?.anyOf?.map((a) => a.enum?.[0] ?? a.const);
        if (choices?.[0] !== undefined) return choices[0] as string;
        if (param.schema?.type === 'boolean') return true;
        throw new Error(`${path}: no sample value for required parameter '${param.name}'`);
      };
      const bodies: Record<string, unknown> = {
        '/api/process-collection-uri-cache': { collectionName: plain.name, creatorAddress: plain.creator },
        '/api/webhooks': { url: 'https://hooks.example.com/mdq' },
        '/api/webhooks/{endpointId}/pause': {},
        '/api/webhooks/{endpointId}/resume': {},
        '/api/validate-metadata': {
          name: token.name,
          description: 'a token',
          image: 'https://example.com/a.png',
        },
      };

      // Path parameters: a dataset, the collection's media, the webhook endpoint made by POST /api/webhooks.
      const pathValues: Record<string, string> = { dataset: 'tokens', id: plain.collectionId };
      // Answers that are not a 200 by design here: the media original sits at a URI this machine
      // cannot fetch (no network), so the route answers with its documented refusal.
      // The WebSocket feed answers a plain GET (no Upgrade) with its documented 400; its 101 is
      // exercised by apps/api's contract test.
      const documentedElse: Record<string, number[]> = {
        '/api/media/{id}': [404, 422, 503],
        '/api/events/ws': [400],
      };
      const called: string[] = [];
      const failures: string[] = [];
      for (const [path, item] of Object.entries(doc.paths)) {
        for (const [method, raw] of Object.entries(item)) {
          if (method !== 'get' && method !== 'post' && method !== 'delete') continue;
          const op = raw as Operation;
          const query = Object.fromEntries(
            (op.parameters ?? [])
              // creator + collection are optional where lootboxId is the alternative: send the pair.
              .filter(
                (p) => p.in === 'query' && (p.required || p.name === 'creator' || p.name === 'collection'),
              )
              .map((p) => [p.name, sample(p, path)]),
          );
          if (method === 'post' && bodies[path] === undefined)
            throw new Error(`no sample body for POST ${path}`);
          const params = Object.fromEntries(
            (op.parameters ?? [])
              .filter((p) => p.in === 'path')
              .map((p) => {
                const value = pathValues[p.name];
                if (value === undefined)
                  throw new Error(`${path}: no sample value for path parameter '${p.name}'`);
                return [p.name, value];
              }),
          );
          // The path is only known at run time here: the typed surface is what the first test shows.
          const call = (method === 'get'
            ? client.GET
            : method === 'post'
              ? client.POST
              : client.DELETE) as unknown as (
            path: string,
            init: { params: { query: typeof query; path: typeof params }; body?: unknown; parseAs: 'stream' },
          ) => Promise<{ response: Response; data?: ReadableStream; error?: unknown }>;
          // Streams (export, the live feed) never need reading to the end: status and headers tell.
          const { response, data, error } = await call(path, {
            params: { query, path: params },
            parseAs: 'stream',
            ...(method === 'post' ? { body: bodies[path] } : {}),
          });
          if (path === '/api/webhooks' && method === 'post' && data) {
            const created = JSON.parse(await new Response(data).text()) as { data: { endpointId: string } };
            pathValues['endpointId'] = created.data.endpointId;
          } else await data?.cancel();
          called.push(`${method.toUpperCase()} ${path}`);
          // /ready may say 503 (no tip recorded yet is 200; a lagging one is not an error of the client).
          const ok =
            response.status === 200 ||
            response.status === 201 ||
            (method === 'delete' && response.status === 204) ||
            (path === '/ready' && response.status === 503) ||
            (documentedElse[path]?.includes(response.status) ?? false);
          if (!ok)
            failures.push(
              `${method.toUpperCase()} ${path} ${new URLSearchParams(query as Record<string, string>)}: ${response.status} ${JSON.stringify(error)}`,
            );
        }
      }
      expect(failures).toEqual([]);
      expect(called.length).toBeGreaterThanOrEqual(30);
    });
  });
});
