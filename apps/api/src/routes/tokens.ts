import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  ActivityEntry,
  Address,
  CollectionFacts,
  ERRORS,
  ListOf,
  LootboxId,
  Name,
  One,
  pageQuery,
  TokenBalance,
  TokenSummary,
  TokenTraits,
} from '@mdq/contracts';
import {
  collectionFacts,
  collectionIdOfName,
  collectionIdsMatching,
  findLootboxOfPairCollection,
  findTokenByName,
  lootboxStatusChangesAt,
  TOKEN_TIMELINE_TABLES,
  tokenBalances,
  tokenIdOfName,
  tokensOfCollections,
  tokensOfLootbox,
  tokenTimeline,
  tokenTraits,
} from '@mdq/db/read';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { pageOf } from '../lib/paging';
import { foundToken, inKnownCollections, knownLootbox, ofKnownSubject } from '../lib/resolve';
import { ApiError } from '../plugins/errors';
import type { RouteDeps } from './deps';

const PropertyVersion = Type.String({
  pattern: '^[0-9]{1,20}$',
  default: '0',
  description: 'v1 property version',
});

const BalancesQuery = Type.Object({
  address: Address('wallet address (required: an unscoped balance dump would be unbounded)'),
  greaterThanZeroBalance: Type.Boolean({ default: false, description: 'only balances above zero' }),
  collection: Type.Optional(Name('collection name')),
  creator: Type.Optional(Address('creator address')),
  serviceInfo: Type.Boolean({
    default: false,
    description: 'add active listing, lootbox id, rarity tier and rank',
  }),
  ...pageQuery(100),
});

const LootboxIdQuery = Type.Object({ lootboxId: LootboxId('numeric lootbox id'), ...pageQuery(100) });

const CollectionPairQuery = Type.Object({
  creator: Address('creator address of the collection'),
  collection: Name('collection name'),
});

const CollectionPairPageQuery = Type.Object({
  creator: Address('creator address of the collection'),
  collection: Name('collection name'),
  ...pageQuery(50),
});

const LootboxCreatorPageQuery = Type.Object({
  creator: Address('creator address of the lootbox'),
  collection: Name('collection name of the lootbox'),
  ...pageQuery(100),
});

const TokenActivityQuery = Type.Object({
  tokenName: Name('token name'),
  creator: Address('creator address'),
  collection: Name('collection name'),
  propertyVersion: PropertyVersion,
  ...pageQuery(20),
});

const TokenTraitsQuery = Type.Object({
  collection: Name('collection name'),
  creator: Address('creator address'),
  tokenName: Name('token name'),
  collectionUrl: Type.Optional(Type.String({ maxLength: 2048, description: 'URL of the collection' })),
  propertyVersion: PropertyVersion,
  tokenStandard: Type.Union([Type.Literal('v1'), Type.Literal('v2')], {
    default: 'v1',
    description: 'token standard',
  }),
});

const tags = ['tokens'];

/**
 * A token's traits page: the token, its document, attributes, rarity, and its collection's value
 * counts and live total, every one read with the token's collection (the page keys on its counters).
 */
const TOKEN_TRAITS_TABLES = [
  'collection_trait_totals',
  'collections:identity',
  'metadata_documents',
  'token_attributes',
  'token_rarity',
  'tokens',
  'trait_value_counts',
] as const;

/**
 * A lootbox's tokens (tokensOfLootbox): its lootbox row, the tokens of its id with their documents,
 * all on the lootbox's counters, and each token's collection by name, creator and URI alone, on the
 * counter of collections' identity (an owner count or supply moving retires no such page).
 */
const LOOTBOX_TOKENS_CACHE = {
  tables: ['collections:identity', 'lootboxes', 'metadata_documents', 'tokens'],
  lootbox: { tables: ['lootboxes', 'metadata_documents', 'tokens'] },
} as const;

/**
 * A lootbox's collection page (token-collection-by-lootbox-creator): the newest lootbox of the pair
 * among the pair's collections' (findLootboxOfPairCollection) and its collection's facts
 * (collectionFacts: its row with its counts, active listings, tokens and sales), every one read by
 * that collection's id, so the page keys on the pair's collection's counters.
 */
const LOOTBOX_COLLECTION_TABLES = [
  'collections',
  'listings',
  'lootboxes',
  'marketplace_activities',
  'tokens',
] as const;

/** Token area: balances, tokens of a collection or lootbox, a token's timeline and traits. */
export async function tokenRoutes(scope: FastifyInstance, { readDb: db, now }: RouteDeps): Promise<void> {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/token-balances',
    {
      schema: {
        tags,
        summary: "A wallet's token balances",
        description:
          '`address` is required (the spec lists it both ways; an unscoped dump of every balance would be ' +
          'unbounded). `serviceInfo=true` adds the active listing, lootbox id, rarity tier and rarity rank.',
        querystring: BalancesQuery,
        response: { 200: ListOf(TokenBalance), ...ERRORS },
      },
      config: {
        // The wallet's ownerships and listings by owner and seller, its tokens' rows by their ids:
        // on its bucket's counters. The rarity ranks (serviceInfo) are rewritten per collection.
        readCache: {
          tables: ['collections:identity', 'listings', 'token_ownerships', 'token_rarity', 'tokens'],
          wallet: { tables: ['listings', 'token_ownerships', 'tokens'] },
          optional: { param: 'serviceInfo', tables: ['token_rarity'] },
        },
      },
    },
    async (request) => {
      const q = request.query;
      const collectionIds =
        q.collection !== undefined || q.creator !== undefined
          ? await collectionIdsMatching(db, { name: q.collection, creator: q.creator })
          : undefined;
      return tokenBalances(
        db,
        {
          address: q.address,
          greaterThanZeroBalance: q.greaterThanZeroBalance,
          collectionIds,
          serviceInfo: q.serviceInfo,
        },
        pageOf(request),
      );
    },
  );

  app.get(
    '/tokens-by-lootbox',
    {
      schema: {
        tags: [...tags, 'lootbox'],
        summary: 'Tokens revealed from a lootbox',
        querystring: LootboxIdQuery,
        response: { 200: ListOf(TokenSummary), ...ERRORS },
      },
      config: { readCache: LOOTBOX_TOKENS_CACHE },
    },
    async (request) => {
      const key = { lootboxId: request.query.lootboxId };
      return ofKnownSubject(await tokensOfLootbox(db, key, pageOf(request)), () => knownLootbox(db, key));
    },
  );

  app.get(
    '/tokens-by-collection',
    {
      schema: {
        tags,
        summary: 'Tokens of a collection, by name',
        querystring: CollectionPairPageQuery,
        response: { 200: ListOf(TokenSummary), ...ERRORS },
      },
      config: {
        readCache: {
          tables: ['collection_trait_totals', 'collections:identity', 'metadata_documents', 'tokens'],
          collection: {
            tables: ['collection_trait_totals', 'collections:identity', 'metadata_documents', 'tokens'],
          },
        },
      },
    },
    async (request) => {
      const collections = { creator: request.query.creator, name: request.query.collection };
      return inKnownCollections(db, collections, await tokensOfCollections(db, collections, pageOf(request)));
    },
  );

  app.get(
    '/tokens-by-lootbox-creator',
    {
      schema: {
        tags: [...tags, 'lootbox'],
        summary: 'Tokens of the lootbox (creator, collection)',
        querystring: LootboxCreatorPageQuery,
        response: { 200: ListOf(TokenSummary), ...ERRORS },
      },
      config: { readCache: LOOTBOX_TOKENS_CACHE },
    },
    async (request) => {
      const key = { creator: request.query.creator, collection: request.query.collection };
      return ofKnownSubject(await tokensOfLootbox(db, key, pageOf(request)), () => knownLootbox(db, key));
    },
  );

  app.get(
    '/token-collection-by-lootbox-creator',
    {
      schema: {
        tags: [...tags, 'lootbox'],
        summary: "The lootbox's collection: supply, minted, owners, floor, volume",
        querystring: CollectionPairQuery,
        response: { 200: One(CollectionFacts), ...ERRORS },
      },
      config: {
        // Keyed on the pair's collection: the lootbox is read among those of that collection and its
        // facts by its id. Keyed on the global counters, any block's listing, sale, mint or lootbox
        // purchase anywhere retired it (10% hits under the live bench, 5.5% of the server's time).
        readCache: {
          tables: LOOTBOX_COLLECTION_TABLES,
          collection: { tables: LOOTBOX_COLLECTION_TABLES },
        },
        cacheSeconds: 15,
      },
    },
    async (request) => {
      const at = now();
      const { creator, collection } = request.query;
      let lootbox = await findLootboxOfPairCollection(db, creator, collection, at);
      if (!lootbox) {
        // A lootbox whose collection is not the pair's (or not indexed yet): its answer (or 404) as
        // before, not kept, since the pair's counters do not count its rows.
        request.cacheSkip = true;
        lootbox = await knownLootbox(db, { creator, collection }, at);
      }
      // The lootbox's status is the only part that moves with the clock: cached until it can change.
      const changesAt = lootboxStatusChangesAt(lootbox, at);
      if (changesAt !== null) request.cacheUntil = changesAt;
      const facts = await collectionFacts(db, lootbox.collectionId);
      if (!facts) {
        throw new ApiError(
          404,
          'COLLECTION_NOT_FOUND',
          `lootbox ${lootbox.lootboxId}'s collection is not indexed yet`,
        );
      }
      return { data: { ...facts, lootbox } };
    },
  );

  app.get(
    '/token/activity',
    {
      schema: {
        tags,
        summary: "A token's timeline: mint, transfers, listings, sales, offers, burns (newest first)",
        querystring: TokenActivityQuery,
        response: { 200: ListOf(ActivityEntry), ...ERRORS },
      },
      config: {
        // Every read states the token's collection (of the pair): keyed on that collection alone.
        readCache: { tables: TOKEN_TIMELINE_TABLES, collection: { tables: TOKEN_TIMELINE_TABLES } },
      },
    },
    async (request) => {
      const q = request.query;
      return ofKnownSubject(
        await tokenTimeline(
          db,
          { id: tokenIdOfName(q), collection: collectionIdOfName(q) },
          q.propertyVersion,
          pageOf(request),
        ),
        async () =>
          foundToken(await findTokenByName(db, q), `no token '${q.tokenName}' in '${q.collection}'`),
      );
    },
  );

  app.get(
    '/token/traits',
    {
      schema: {
        tags,
        summary: "A token's traits with each value's count and share in its collection",
        querystring: TokenTraitsQuery,
        response: { 200: One(TokenTraits), ...ERRORS },
      },
      config: {
        readCache: {
          tables: TOKEN_TRAITS_TABLES,
          collection: { tables: TOKEN_TRAITS_TABLES },
        },
        cacheSeconds: 30,
      },
    },
    async (request) => {
      const q = request.query;
      // tokenStandard narrows the match; its default ('v1', per spec) must not hide a v2 token.
      const token = foundToken(
        (await findTokenByName(db, q)) ?? (await findTokenByName(db, { ...q, tokenStandard: undefined })),
        `no token '${q.tokenName}' in '${q.collection}'`,
      );
      const traits = await tokenTraits(db, token.tokenId, token.collectionId);
      return {
        data: {
          tokenId: token.tokenId,
          tokenName: token.tokenName,
          tokenStandard: token.tokenStandard,
          propertyVersion: q.propertyVersion,
          creator: token.creator,
          collection: token.collection,
          collectionId: token.collectionId,
          ...traits,
        },
      };
    },
  );
}
