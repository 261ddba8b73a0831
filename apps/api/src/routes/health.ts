import { type Db, latestIndexedVersion } from '@mdq/db';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';

const Health = Type.Object({ status: Type.Literal('ok'), network: Type.String() });
const Ready = Type.Object({
  status: Type.Union([Type.Literal('ready'), Type.Literal('unavailable')]),
  database: Type.Boolean(),
  indexedVersion: Type.Union([Type.Integer(), Type.Null()]),
});

/** Liveness and readiness: no API key, for load balancers and orchestrators. */
export function healthRoutes(app: FastifyInstance, opts: { db: Db; network: string }): void {
  app.get(
    '/health',
    { schema: { tags: ['ops'], summary: 'Liveness', response: { 200: Health } } },
    async () => ({ status: 'ok' as const, network: opts.network }),
  );

  app.get(
    '/ready',
    {
      schema: {
        tags: ['ops'],
        summary: 'Readiness: database reachable',
        response: { 200: Ready, 503: Ready },
      },
    },
    async (_request, reply) => {
      try {
        const indexedVersion = await latestIndexedVersion(opts.db);
        return { status: 'ready' as const, database: true, indexedVersion };
      } catch {
        return reply
          .status(503)
          .send({ status: 'unavailable' as const, database: false, indexedVersion: null });
      }
    },
  );
}
