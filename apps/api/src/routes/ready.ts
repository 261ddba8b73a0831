import { Nullable, StringEnum } from '@mdq/contracts';
import { type Db, lagOf, readFreshness } from '@mdq/db';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';

const Ready = Type.Object({
  status: StringEnum(['ready', 'unavailable', 'lagging']),
  database: Type.Boolean(),
  indexedVersion: Nullable(Type.Integer()),
  indexedAt: Nullable(Type.String({ format: 'date-time' })),
  tipVersion: Nullable(Type.Integer()),
  lagVersions: Nullable(Type.Integer()),
  lagSeconds: Nullable(Type.Integer()),
  maxLagSeconds: Type.Integer(),
});

export interface ReadyOptions {
  /** The database the answers are read from (the replica when there is one): its lag is the API's. */
  db: Db;
  /** `/ready` turns 503 past this lag. */
  maxLagSeconds: number;
  now: () => Date;
}

/** `/ready`, readiness: no API key, for load balancers and orchestrators. */
export function readyRoutes(app: FastifyInstance, opts: ReadyOptions): void {
  app.get(
    '/ready',
    {
      schema: {
        tags: ['ops'],
        summary: 'Readiness: database reachable and the indexed data within the lag threshold',
        security: [],
        description:
          'Lag is measured against the chain tip the indexer last saw: versions behind it, and seconds ' +
          '(zero when caught up, else the age of the newest indexed block; at least the age of the tip ' +
          'reading, so a stopped indexer shows a growing lag). Null while no indexer has reported a tip. ' +
          'tipVersion is never below indexedVersion: a tip reading older than the index is raised to it.',
        response: { 200: Ready, 503: Ready },
      },
    },
    async (_request, reply) => {
      try {
        const fresh = await readFreshness(opts.db);
        const lag = lagOf(fresh, opts.now());
        const lagging = lag.seconds !== null && lag.seconds > opts.maxLagSeconds;
        return reply.status(lagging ? 503 : 200).send({
          status: lagging ? ('lagging' as const) : ('ready' as const),
          database: true,
          indexedVersion: fresh.indexedVersion,
          indexedAt: fresh.indexedAt?.toISOString() ?? null,
          tipVersion: fresh.tipVersion,
          lagVersions: lag.versions,
          lagSeconds: lag.seconds,
          maxLagSeconds: opts.maxLagSeconds,
        });
      } catch {
        return reply.status(503).send({
          status: 'unavailable' as const,
          database: false,
          indexedVersion: null,
          indexedAt: null,
          tipVersion: null,
          lagVersions: null,
          lagSeconds: null,
          maxLagSeconds: opts.maxLagSeconds,
        });
      }
    },
  );
}
