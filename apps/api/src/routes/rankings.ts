import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ERRORS, ListOf, pageQuery, RankedCollection, RankedLootbox } from '@mdq/contracts';
import { type CollectionRanking, lootboxRanking, rankingPage } from '@mdq/db/read';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { pageOf } from '../lib/paging';
import type { RouteDeps } from './deps';

/**
 * The spec allows 1, 10 or 100. An integer enum (not Type.Enum, which emits no `type`) so that Ajv
 * coerces the query string before checking membership.
 */
const RankingQuery = Type.Object({
  page: pageQuery(10).page,
  cursor: pageQuery(10).cursor,
  limit: Type.Unsafe<1 | 10 | 100>({
    type: 'integer',
    enum: [1, 10, 100],
    default: 10,
    description: '1, 10 or 100',
  }),
});

const CollectionRankingQuery = Type.Object({
  ...RankingQuery.properties,
  includeFlagged: Type.Boolean({
    default: false,
    description: 'rank with wash-flagged sales counted (by default they are left out)',
  }),
});

const tags = ['rankings'];

/** Collection rankings are what the worker last wrote; they change at most once a run. */
const COLLECTION_RANKINGS: { path: string; ranking: CollectionRanking; summary: string }[] = [
  {
    path: '/rankings/trending-collections',
    ranking: 'trending',
    summary: 'Trending (7 days): volume 0.5, sales 0.3, unique buyers 0.2 (percentile ranks)',
  },
  {
    path: '/rankings/daily-picks',
    ranking: 'daily_picks',
    summary: 'Daily picks (24 hours): volume 0.5, floor change 0.3, social engagement 0.2',
  },
  {
    path: '/rankings/top-collections',
    ranking: 'top',
    summary: 'Top (30 days): volume 0.5, floor change 0.25, holder count 0.25',
  },
];

export async function rankingRoutes(scope: FastifyInstance, { readDb: db, now }: RouteDeps): Promise<void> {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();

  /** A lootbox ranking page, cached until the clock moves a status or the upcoming list. */
  const lootboxPage = async (
    request: FastifyRequest & Parameters<typeof pageOf>[0],
    kind: 'recent' | 'upcoming',
  ) => {
    const { page, holdsUntil } = await lootboxRanking(db, kind, pageOf(request), now());
    if (holdsUntil !== null) request.cacheUntil = holdsUntil;
    return page;
  };

  for (const { path, ranking, summary } of COLLECTION_RANKINGS) {
    app.get(
      path,
      {
        schema: {
          tags,
          summary,
          querystring: CollectionRankingQuery,
          response: { 200: ListOf(RankedCollection), ...ERRORS },
        },
        // The ranked rows carry their collection's name, creator, URI and lootbox (kept by triggers on
        // collections): an owner count moving every block leaves the rankings cached.
        config: { readCache: { tables: ['ranking_snapshots'] }, cacheSeconds: 60 },
      },
      async (request) =>
        rankingPage(db, request.query.includeFlagged ? `${ranking}_with_flagged` : ranking, pageOf(request)),
    );
  }

  app.get(
    '/rankings/recent-added',
    {
      schema: {
        tags,
        summary: 'Recently added lootboxes, newest first',
        querystring: RankingQuery,
        response: { 200: ListOf(RankedLootbox), ...ERRORS },
      },
      config: { readCache: { tables: ['lootboxes'] }, cacheSeconds: 30 },
    },
    async (request) => lootboxPage(request, 'recent'),
  );

  app.get(
    '/rankings/by-upcoming',
    {
      schema: {
        tags,
        summary: 'Upcoming lootboxes (before mint start), soonest first',
        querystring: RankingQuery,
        response: { 200: ListOf(RankedLootbox), ...ERRORS },
      },
      config: { readCache: { tables: ['lootboxes'] }, cacheSeconds: 30 },
    },
    async (request) => lootboxPage(request, 'upcoming'),
  );
}
