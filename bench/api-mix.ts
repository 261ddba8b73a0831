/**
 * What the API benchmarks ask (`api-bench.ts`, row by row; `api-live.ts`, all at once on a moving
 * chain): every GET endpoint of the spec, the collection analytics routes and the ts-sdk's five most
 * common Indexer API queries, each as 400 requests whose parameters are drawn from the indexed chain
 * (many tokens, wallets, collections, lootboxes, pages and search texts, not one hot URL).
 */
import pg from 'pg';
import { recordSdkBodies } from './sdk-graphql-bodies';

export type Group = 'front' | 'search' | 'other';

export interface Endpoint {
  name: string;
  group: Group;
  paths: string[];
  /** POST bodies, drawn in turn (to the first path); without them each request GETs a path. */
  bodies?: string[];
}

export interface ChainFacts {
  tokens: number;
  collections: number;
  sales: number;
  /** The chain's last sale: the API's "now" (its 24h / 7d / 30d windows end there). */
  now: Date;
}

/** The chain's size and every endpoint's requests, sampled from the database at `databaseUrl`. */
export async function sampleEndpoints(
  databaseUrl: string,
  network: string,
): Promise<{ facts: ChainFacts | undefined; endpoints: Endpoint[] }> {
  const NETWORK = network;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const q = async <T>(text: string): Promise<T[]> => (await client.query(text)).rows as T[];
  const facts = (
    await q<ChainFacts>(
      `SELECT (SELECT count(*)::int FROM tokens) AS tokens, (SELECT count(*)::int FROM collections) AS collections,
              (SELECT count(*)::int FROM marketplace_activities WHERE kind LIKE 'fill_%') AS sales,
              (SELECT max(transaction_timestamp) FROM marketplace_activities) AS now`,
    )
  )[0];
  console.log(`data: ${facts?.tokens} tokens, ${facts?.collections} collections, ${facts?.sales} sales`);

  const tokens = await q<{
    token_data_id: string;
    token_standard: string;
    token_name: string;
    collection_name: string;
    creator_address: string;
  }>(`SELECT t.token_data_id, t.token_standard, t.token_name, c.collection_name, c.creator_address
      FROM (SELECT * FROM tokens ORDER BY random() LIMIT 3000) t JOIN collections c USING (collection_id)`);
  const listedTokens = await q<{ token_data_id: string; token_standard: string }>(
    `SELECT token_data_id, token_standard FROM listings WHERE token_standard IS NOT NULL ORDER BY random() LIMIT 1000`,
  );
  const collections = await q<{ creator_address: string; collection_name: string; collection_id: string }>(
    'SELECT creator_address, collection_name, collection_id FROM collections',
  );
  const owners = await q<{ owner_address: string }>(
    'SELECT owner_address FROM (SELECT DISTINCT owner_address FROM token_ownerships) o ORDER BY random() LIMIT 3000',
  );
  const traders = await q<{ address: string }>(
    `SELECT address FROM (SELECT DISTINCT coalesce(buyer, seller) AS address FROM marketplace_activities
     WHERE coalesce(buyer, seller) IS NOT NULL) a ORDER BY random() LIMIT 3000`,
  );
  const lootboxes = await q<{ lootbox_id: number; creator_address: string; collection_name: string }>(
    'SELECT lootbox_id, creator_address, collection_name FROM lootboxes',
  );
  await client.end();

  const pick = <T>(xs: T[], i: number): T => xs[i % xs.length] as T;
  const enc = encodeURIComponent;
  const N = 400;
  const mix = (make: (i: number) => string): string[] =>
    Array.from({ length: N }, (_, i) => `/${NETWORK}/api${make(i)}`);
  // Mostly the first pages, as front ends read them; now and then a deeper one.
  const page = (i: number) => (i % 10 === 9 ? 2 + (i % 7) : 1);
  const wallet = (i: number) => (i % 2 === 0 ? pick(owners, i).owner_address : pick(traders, i).address);
  const col = (i: number) => pick(collections, i * 7);
  const pair = (i: number) => `creator=${col(i).creator_address}&collection=${enc(col(i).collection_name)}`;
  const lb = (i: number) => pick(lootboxes, i);
  const lbPair = (i: number) => `creator=${lb(i).creator_address}&collection=${enc(lb(i).collection_name)}`;
  const tok = (i: number) => pick(tokens, i * 13);
  const words = [
    ...new Set(tokens.flatMap((t) => t.token_name.split(/[^A-Za-z]+/)).filter((w) => w.length > 2)),
  ];
  // Any text a user types: one letter, a prefix, a whole word, a word with a typo, a collection name.
  const searchText = (i: number): string => {
    const w = pick(words, i * 31);
    switch (i % 5) {
      case 0:
        return String.fromCharCode(97 + (i % 26));
      case 1:
        return w.slice(0, 3);
      case 2:
        return w;
      case 3:
        return w.length > 4 ? `${w.slice(0, 2)}${w.slice(3)}` : `${w}x`;
      default:
        return col(i).collection_name.slice(0, 8);
    }
  };

  const endpoints: Endpoint[] = [
    {
      name: 'rankings/trending-collections',
      group: 'front',
      paths: mix((i) => `/rankings/trending-collections?page=${page(i)}&limit=${pick([10, 100, 10, 1], i)}`),
    },
    {
      name: 'rankings/daily-picks',
      group: 'front',
      paths: mix((i) => `/rankings/daily-picks?page=${page(i)}&limit=10`),
    },
    {
      name: 'rankings/top-collections',
      group: 'front',
      paths: mix((i) => `/rankings/top-collections?page=${page(i)}&limit=10`),
    },
    {
      name: 'rankings/recent-added',
      group: 'front',
      paths: mix((i) => `/rankings/recent-added?page=${page(i)}&limit=10`),
    },
    {
      name: 'rankings/by-upcoming',
      group: 'front',
      paths: mix((i) => `/rankings/by-upcoming?page=${page(i)}&limit=10`),
    },
    {
      name: 'market/listing-cards',
      group: 'front',
      paths: mix((i) => {
        const filters = [
          '',
          '&byPopular=true',
          `&collectionName=${enc(col(i).collection_name)}&creatorAddress=${col(i).creator_address}`,
          `&minPrice=${10 ** (5 + (i % 4))}`,
          `&search=${enc(searchText(i))}`,
        ];
        return `/market/listing-cards?page=${page(i)}&limit=20${pick(filters, i)}`;
      }),
    },
    {
      name: 'market/total-listing-cards',
      group: 'front',
      paths: mix((i) => {
        const filters = [
          '',
          `collectionName=${enc(col(i).collection_name)}&creatorAddress=${col(i).creator_address}`,
          `minPrice=${10 ** (5 + (i % 4))}`,
          `search=${enc(searchText(i))}`,
        ];
        return `/market/total-listing-cards?${pick(filters, i)}`;
      }),
    },
    {
      name: 'market/listing-card',
      group: 'front',
      paths: mix((i) => {
        const t = i % 2 === 0 ? pick(listedTokens, i) : tok(i);
        return `/market/listing-card?tokenId=${t.token_data_id}&tokenStandard=${t.token_standard}`;
      }),
    },
    {
      name: 'token-balances',
      group: 'front',
      paths: mix(
        (i) =>
          `/token-balances?address=${wallet(i)}&page=${page(i)}${i % 3 === 0 ? '&serviceInfo=true' : ''}`,
      ),
    },
    {
      name: 'tokens-by-collection',
      group: 'front',
      paths: mix((i) => `/tokens-by-collection?${pair(i)}&page=${page(i)}`),
    },
    {
      name: 'market/search',
      group: 'search',
      paths: mix((i) => `/market/search?text=${enc(searchText(i))}`),
    },
    {
      name: 'market/listings-by-collection',
      group: 'other',
      paths: mix((i) => `/market/listings-by-collection?${pair(i)}&page=${page(i)}`),
    },
    {
      name: 'market/bids-by-collection',
      group: 'other',
      paths: mix((i) => `/market/bids-by-collection?${pair(i)}&page=${page(i)}`),
    },
    {
      name: 'market/user-activity',
      group: 'other',
      paths: mix((i) => `/market/user-activity?address=${wallet(i)}&page=${page(i)}`),
    },
    {
      name: 'market/user-listings',
      group: 'other',
      paths: mix((i) => `/market/user-listings?address=${wallet(i)}`),
    },
    { name: 'market/user-bids', group: 'other', paths: mix((i) => `/market/user-bids?address=${wallet(i)}`) },
    {
      name: 'market/user-history',
      group: 'other',
      paths: mix((i) => `/market/user-history?address=${wallet(i)}`),
    },
    {
      name: 'market/token-history-by-tokenId',
      group: 'other',
      paths: mix((i) => `/market/token-history-by-tokenId?tokenId=${tok(i).token_data_id}`),
    },
    {
      name: 'token/activity',
      group: 'other',
      paths: mix((i) => {
        const t = tok(i);
        return `/token/activity?creator=${t.creator_address}&collection=${enc(t.collection_name)}&tokenName=${enc(t.token_name)}`;
      }),
    },
    {
      name: 'token/traits',
      group: 'other',
      paths: mix((i) => {
        const t = tok(i);
        return `/token/traits?creator=${t.creator_address}&collection=${enc(t.collection_name)}&tokenName=${enc(t.token_name)}&tokenStandard=${t.token_standard}`;
      }),
    },
    {
      name: 'user/inventory-history-data',
      group: 'other',
      paths: mix(
        (i) =>
          `/user/inventory-history-data?address=${wallet(i)}&range=${pick(['24h', '7d', '30d', 'all'], i)}`,
      ),
    },
  ];
  if (lootboxes.length > 0) {
    endpoints.push(
      { name: 'lootbox', group: 'other', paths: mix((i) => `/lootbox?${lbPair(i)}`) },
      {
        name: 'lootbox-revenue',
        group: 'other',
        paths: mix((i) => `/lootbox-revenue?${lbPair(i)}&timeframe=${pick(['24h', '7d', '30d', 'all'], i)}`),
      },
      {
        name: 'rarities-by-lootbox',
        group: 'other',
        paths: mix((i) => `/rarities-by-lootbox?lootboxId=${lb(i).lootbox_id}`),
      },
      {
        name: 'tokens-by-lootbox',
        group: 'other',
        paths: mix((i) => `/tokens-by-lootbox?lootboxId=${lb(i).lootbox_id}&page=${page(i)}`),
      },
      {
        name: 'tokens-by-lootbox-creator',
        group: 'other',
        paths: mix((i) => `/tokens-by-lootbox-creator?${lbPair(i)}`),
      },
      {
        name: 'token-collection-by-lootbox-creator',
        group: 'other',
        paths: mix((i) => `/token-collection-by-lootbox-creator?${lbPair(i)}`),
      },
    );
  }
  endpoints.push({
    name: 'rarities-by-collection',
    group: 'other',
    paths: mix((i) => `/rarities-by-collection?${pair(i)}&page=${page(i)}`),
  });
  // The analytics routes, as a collection page's charts and stats ask them: by id or by pair.
  const which = (i: number) => (i % 2 === 0 ? `collectionId=${col(i).collection_id}` : pair(i));
  endpoints.push(
    {
      name: 'collection-stats',
      group: 'other',
      paths: mix((i) => `/collection-stats?${which(i)}&window=${pick(['24h', '7d', '30d', '1h', 'all'], i)}`),
    },
    {
      name: 'collection-history',
      group: 'other',
      paths: mix((i) => `/collection-history?${which(i)}&interval=${pick(['1d', '1h'], i)}`),
    },
    {
      name: 'collection-trait-floors',
      group: 'other',
      paths: mix((i) => `/collection-trait-floors?${which(i)}`),
    },
    {
      name: 'collection-top-traders',
      group: 'other',
      paths: mix((i) => `/collection-top-traders?${which(i)}&window=${pick(['7d', '30d', '24h'], i)}`),
    },
  );
  // The Indexer API's GraphQL (issue #36): the five NFT queries @aptos-labs/ts-sdk sends most, as the
  // SDK itself sends them (POST bodies recorded from the SDK, sdk-graphql-bodies.ts), over the
  // chain's wallets, tokens and collections.
  const sdkQueries = await recordSdkBodies(
    {
      wallets: Array.from({ length: N }, (_, i) => wallet(i)),
      tokenIds: tokens.map((t) => t.token_data_id),
      collections: collections.map((c) => ({ creator: c.creator_address, name: c.collection_name })),
    },
    N,
  );
  for (const { method, bodies } of sdkQueries) {
    endpoints.push({ name: `graphql/${method}`, group: 'other', paths: [`/${NETWORK}/v1/graphql`], bodies });
  }
  return { facts, endpoints };
}
