import { normalizeAddress } from '@mdq/chain/address';
import { atVersion, entryFunction, moduleEvent, userTransaction } from '@mdq/chain/testing';
import { type Db, sql } from '@mdq/db';
import { collectionTraitFloors } from '@mdq/db/read';
import type { CollectionFacts, DevnetFacts, TokenFacts } from '@mdq/devnet';
import { memorySource, runIndexer } from '@mdq/indexer';
import { createIndexedDatabase, devnetDecoder, type IndexedDatabase } from '@mdq/indexer/testing';
import { noopNotifier } from '@mdq/jobs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { crawlCollectionMetadata, type MetadataCrawlOptions } from '../src/metadata/crawl-collection';
import { referenceRanks } from './open-rarity-reference';

/*
 * The crawler on a devnet chain: the devnet serves every collection's and token's document (traits
 * on chain only, in the document only, or both with one conflict; a few URIs misbehave), and its
 * facts say which traits each token should end with. Traits, OpenRarity ranks and trait floors
 * must equal what the facts give, whichever source holds the traits.
 */
let indexed: IndexedDatabase;
let db: Db;
let facts: DevnetFacts;
let options: MetadataCrawlOptions;

/** Crawls every collection at once, each until nothing of it is due: what the jobs do, in one go. */
async function crawlAll(): Promise<void> {
  await Promise.all(
    facts.collections.map(async (c) => {
      for (let round = 0; round < 20; round++) {
        const result = await crawlCollectionMetadata(db, c.collectionId, options);
        if (!result.more) return;
      }
      throw new Error(`collection ${c.collectionId} still had documents due after 20 rounds`);
    }),
  );
}

beforeAll(async () => {
  indexed = await createIndexedDatabase({ seed: 7, preset: 'tiny' });
  db = indexed.db;
  facts = indexed.facts;
  options = {
    ipfsGateways: [],
    arweaveGateway: 'https://arweave.invalid/',
    // The devnet's own server on 127.0.0.1: the one explicit allowance of the SSRF guard.
    trustedOrigins: [indexed.devnet.origin],
    // The slow URI answers after 30 s; the deadline ends it long before, yet leaves the other
    // documents room on a loaded machine (1.5 s timed documents out when CI ran every suite at once).
    timeoutMs: 8_000,
    retryDelayMs: 50,
    hostIntervalMs: 1,
    batchSize: 50,
  };
  await crawlAll();
}, 120_000);

afterAll(async () => {
  await indexed?.close();
});

async function storedTraits(collectionId: string): Promise<Map<string, Record<string, string>>> {
  const rows = await db
    .selectFrom('token_attributes')
    .select(['token_data_id', 'trait_type', 'value', 'source'])
    .where('collection_id', '=', collectionId)
    .execute();
  const out = new Map<string, Record<string, string>>();
  for (const r of rows) {
    const traits = out.get(r.token_data_id) ?? {};
    traits[r.trait_type] = `${r.value} [${r.source}]`;
    out.set(r.token_data_id, traits);
  }
  return out;
}

/** The facts' expected traits, each tagged with the source mdq must name: the chain where it holds one. */
function expectedTagged(t: TokenFacts): Record<string, string> {
  return Object.fromEntries(
    Object.entries(t.expectedTraits).map(([k, v]) => [k, `${v} [${k in t.traits ? 'chain' : 'document'}]`]),
  );
}

/**
 * A v2 token's URI mutation as `0x4::token::set_uri` (aptos-token-objects) makes it: the module
 * event `0x4::token::Mutation { token_address, mutated_field_name: "uri", old_value, new_value }`
 * and the token's object group written again with the new `Token.uri`. The resources are the
 * ones the token's mint transaction wrote, read back from the devnet's REST API.
 */
async function uriMutation(tokenAddress: string, mintVersion: number, newUri: string, version: number) {
  const mint = (await (
    await fetch(`${indexed.devnet.url}/transactions/by_version/${mintVersion}`)
  ).json()) as {
    changes: { type: string; address?: string; data?: { type: string; data: Record<string, unknown> } }[];
  };
  const ofToken = mint.changes.filter(
    (c) =>
      c.type === 'write_resource' && c.address !== undefined && normalizeAddress(c.address) === tokenAddress,
  );
  const tokenResource = ofToken.find((c) => c.data?.type === '0x4::token::Token');
  if (!tokenResource?.data)
    throw new Error(`mint ${mintVersion} wrote no 0x4::token::Token at ${tokenAddress}`);
  const oldUri = String(tokenResource.data.data['uri']);
  const changes = ofToken.map((c) =>
    c === tokenResource ? { ...c, data: { ...c.data, data: { ...c.data?.data, uri: newUri } } } : c,
  );
  return userTransaction(
    [
      moduleEvent('0x4::token::Mutation', {
        token_address: tokenAddress,
        mutated_field_name: 'uri',
        old_value: oldUri,
        new_value: newUri,
      }),
    ],
    changes as Record<string, unknown>[],
    {
      ...atVersion(version, Date.now() * 1000 - version),
      sender: tokenAddress,
      sequence_number: '0',
      payload: entryFunction('0x4::aptos_token::set_token_uri'),
    },
  ) as unknown as Parameters<typeof memorySource>[0][number];
}

function tokensOf(c: CollectionFacts): TokenFacts[] {
  return facts.tokens[c.collectionId] ?? [];
}

describe('metadata crawler on the devnet', () => {
  it('covers every trait placement and misbehaving URIs', () => {
    const sources = new Set(facts.collections.map((c) => c.traitSource));
    expect([...sources].sort()).toEqual(['both', 'chain', 'document']);
    const faults = Object.values(facts.tokens).flatMap((list) =>
      list.filter((t) => t.metadataFault !== null),
    );
    expect(faults.length).toBeGreaterThanOrEqual(3);
    const conflict = facts.collections.find((c) => c.conflictTrait !== null);
    expect(
      tokensOf(conflict as CollectionFacts).some((t) => {
        const trait = conflict?.conflictTrait as string;
        return t.documentTraits?.[trait] !== undefined && t.documentTraits[trait] !== t.traits[trait];
      }),
    ).toBe(true);
  });

  it("every token's traits are the facts' expected traits, tagged with their source", async () => {
    for (const c of facts.collections) {
      const stored = await storedTraits(c.collectionId);
      for (const t of tokensOf(c)) {
        expect([c.traitSource, t.name, stored.get(t.tokenId) ?? {}]).toEqual([
          c.traitSource,
          t.name,
          expectedTagged(t),
        ]);
      }
    }
  });

  it('marks the tokens the generator burned, v1 ones included (0x3::token::BurnTokenEvent)', async () => {
    const { rows } = await sql<{ collection_id: string; burned: number }>`
      SELECT collection_id, count(*) FILTER (WHERE is_burned)::int AS burned FROM tokens GROUP BY 1`.execute(
      db,
    );
    const stored = new Map(rows.map((r) => [r.collection_id, r.burned]));
    expect(facts.collections.some((c) => c.standard === 'v1' && c.burned > 0)).toBe(true);
    for (const c of facts.collections) {
      expect([c.name, c.standard, stored.get(c.collectionId) ?? 0]).toEqual([c.name, c.standard, c.burned]);
    }
  });

  it('OpenRarity ranks equal a reference computation over the expected traits', async () => {
    let ranked = 0;
    // Every collection, v1 ones with burned tokens included: a v1 burn leaves the population.
    expect(facts.collections.some((c) => c.standard === 'v1' && c.burned > 0)).toBe(true);
    for (const c of facts.collections) {
      const rows = await db
        .selectFrom('token_rarity')
        .select(['token_data_id', 'rank'])
        .where('collection_id', '=', c.collectionId)
        .execute();
      const got = Object.fromEntries(rows.map((r) => [r.token_data_id, r.rank]));
      const want = Object.fromEntries(
        referenceRanks(tokensOf(c).map((t) => ({ tokenId: t.tokenId, traits: t.expectedTraits }))),
      );
      expect([c.traitSource, got]).toEqual([c.traitSource, want]);
      ranked += rows.length;
    }
    expect(ranked).toBeGreaterThan(0);
  });

  it('trait floors and counts equal the facts: the cheapest listed token of each value', async () => {
    for (const c of facts.collections) {
      const want = new Map<string, { count: number; floor: bigint | null }>();
      for (const t of tokensOf(c)) {
        for (const [k, v] of Object.entries(t.expectedTraits)) {
          const entry = want.get(`${k}=${v}`) ?? { count: 0, floor: null };
          entry.count++;
          if (t.listPrice !== null && (entry.floor === null || BigInt(t.listPrice) < entry.floor))
            entry.floor = BigInt(t.listPrice);
          want.set(`${k}=${v}`, entry);
        }
      }
      const got = await collectionTraitFloors(db, c.collectionId, true);
      expect([
        c.traitSource,
        c.name,
        Object.fromEntries(got.map((f) => [`${f.traitType}=${f.value}`, [f.count, f.floor]])),
      ]).toEqual([
        c.traitSource,
        c.name,
        Object.fromEntries(
          [...want].map(([k, w]) => [k, [w.count, w.floor === null ? null : String(w.floor)]]),
        ),
      ]);
    }
  });

  it('misbehaving URIs end in a stored error with the reason; every other document is ok', async () => {
    const reasons: Record<string, RegExp> = {
      'not-found': /HTTP 404/,
      'invalid-json': /not JSON/,
      slow: /timed out/,
      oversized: /larger than/,
      'private-redirect': /private address/,
    };
    const docs = await db
      .selectFrom('metadata_documents')
      .select(['subject_id', 'status', 'error', 'content_hash', 'report'])
      .execute();
    const byId = new Map(docs.map((d) => [d.subject_id, d]));
    for (const c of facts.collections) {
      expect([c.collectionId, byId.get(c.collectionId)?.status]).toEqual([c.collectionId, 'ok']);
      for (const t of tokensOf(c)) {
        const doc = byId.get(t.tokenId);
        if (t.metadataFault === null) {
          expect([t.name, doc?.status, doc?.error]).toEqual([t.name, 'ok', null]);
          expect(doc?.content_hash).toMatch(/^[0-9a-f]{64}$/);
        } else {
          expect([t.name, doc?.status]).toEqual([t.name, 'error']);
          expect(doc?.error).toMatch(reasons[t.metadataFault] as RegExp);
        }
      }
    }
  });

  it('a mutation event makes the token due: its new document and traits replace the old, rarity follows', async () => {
    const c = facts.collections.find(
      (x) => x.traitSource === 'document' && x.standard === 'v2',
    ) as CollectionFacts;
    const good = tokensOf(c).filter((t) => t.metadataFault === null);
    const token = good[0];
    const other = good.find(
      (t) => JSON.stringify(t.documentTraits) !== JSON.stringify(token?.documentTraits),
    );
    if (!token || !other) throw new Error('the document collection has no two good tokens with other traits');
    const row = await db
      .selectFrom('tokens')
      .selectAll()
      .where('token_data_id', '=', token.tokenId)
      .executeTakeFirstOrThrow();
    const newUri = (row.token_uri as string).replace(/\/\d+\.json$/, `/${other.serial}.json`);
    // The chain's URI mutation, through the real decoder and indexer (not a hand-written row).
    const version = Number(
      (await sql<{ v: string }>`SELECT max(last_version)::text AS v FROM indexer_checkpoints`.execute(db))
        .rows[0]?.v,
    );
    const mutation = await uriMutation(row.token_data_id, Number(row.minted_version), newUri, version + 1);
    const stats = await runIndexer({
      db,
      source: memorySource([mutation]),
      decode: devnetDecoder(indexed.devnet),
      notifier: noopNotifier,
      batchSize: 10,
      untilCaughtUp: true,
    });
    expect(stats).toMatchObject({ transactions: 1, failed: 0 });
    const activity = await db
      .selectFrom('token_activities')
      .select(['kind', 'event_type'])
      .where('token_data_id', '=', token.tokenId)
      .where('transaction_version', '=', version + 1)
      .executeTakeFirst();
    expect(activity).toEqual({ kind: 'mutate', event_type: '0x4::token::Mutation' });
    const served = (await (await fetch(newUri)).json()) as {
      attributes: { trait_type: string; value: string }[];
    };
    const result = await crawlCollectionMetadata(db, c.collectionId, options);
    expect(result.fetched).toBe(1);
    expect(result.traitsChanged).toBe(true);
    const stored = await storedTraits(c.collectionId);
    expect(stored.get(token.tokenId)).toEqual(
      Object.fromEntries(served.attributes.map((a) => [a.trait_type, `${a.value} [document]`])),
    );
    const doc = await db
      .selectFrom('metadata_documents')
      .select(['uri', 'name'])
      .where('subject_id', '=', token.tokenId)
      .executeTakeFirstOrThrow();
    expect(doc).toEqual({ uri: newUri, name: other.name });
    // The collection's OpenRarity was recomputed from the traits as they are now.
    const { rows } = await sql<{ fresh: boolean }>`
      SELECT m.computed_from = t.changed_version AS fresh FROM collection_trait_totals t
        JOIN collection_rarity_marks m USING (collection_id) WHERE collection_id = ${c.collectionId}`.execute(
      db,
    );
    expect(rows[0]?.fresh).toBe(true);
  });
});
