import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  Address,
  ERRORS,
  ListOf,
  LootboxId,
  LootboxTier,
  Name,
  One,
  pageQuery,
  TokenRarity,
  U64Out,
} from '@mdq/contracts';
import { findLootboxWithTiers, raritiesOfCollections } from '@mdq/db/read';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { pageOf } from '../lib/paging';
import { foundLootbox, inKnownCollections, LOOTBOX_WITH_TIERS_TABLES } from '../lib/resolve';
import type { RouteDeps } from './deps';

const LootboxIdQuery = Type.Object({
  lootboxId: LootboxId('lootbox id'),
});

const RaritiesByCollectionQuery = Type.Object({
  creator: Address('creator address of the collection'),
  collection: Name('collection name'),
  ...pageQuery(100),
});

const LootboxRarities = Type.Object({
  lootboxId: Type.Integer(),
  collectionId: Type.String(),
  maxSupply: U64Out,
  minted: U64Out,
  tiers: Type.Array(LootboxTier),
});

const tags = ['lootbox'];

/** `/rarities-by-*`: a lootbox's tier table, the OpenRarity ranks of a collection's tokens. */
export async function rarityRoutes(scope: FastifyInstance, { readDb: db }: RouteDeps): Promise<void> {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();

  app.get(
    '/rarities-by-lootbox',
    {
      schema: {
        tags,
        summary: "A lootbox's tier table: weights, probabilities, supply and minted counts",
        querystring: LootboxIdQuery,
        response: { 200: One(LootboxRarities), ...ERRORS },
      },
      config: {
        readCache: { tables: LOOTBOX_WITH_TIERS_TABLES, lootbox: { tables: LOOTBOX_WITH_TIERS_TABLES } },
        cacheSeconds: 10,
      },
    },
    async (request) => {
      const key = { lootboxId: request.query.lootboxId };
      const lootbox = foundLootbox(await findLootboxWithTiers(db, key), key);
      return {
        data: {
          lootboxId: lootbox.lootboxId,
          collectionId: lootbox.collectionId,
          maxSupply: lootbox.maxSupply,
          minted: lootbox.minted,
          tiers: lootbox.tiers,
        },
      };
    },
  );

  app.get(
    '/rarities-by-collection',
    {
      schema: {
        tags,
        summary: "OpenRarity rank and score of a collection's tokens, rarest first",
        querystring: RaritiesByCollectionQuery,
        response: { 200: ListOf(TokenRarity), ...ERRORS },
      },
      config: {
        readCache: {
          tables: ['collection_rarity_totals', 'collections:identity', 'token_rarity', 'tokens'],
          collection: {
            tables: ['collection_rarity_totals', 'collections:identity', 'token_rarity', 'tokens'],
          },
        },
        cacheSeconds: 30,
      },
    },
    async (request) => {
      const collections = { creator: request.query.creator, name: request.query.collection };
      return inKnownCollections(
        db,
        collections,
        await raritiesOfCollections(db, collections, pageOf(request)),
      );
    },
  );
}
