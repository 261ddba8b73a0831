import { buildInfo } from '@mdq/config';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';

const Health = Type.Object({
  status: Type.Literal('ok'),
  network: Type.String(),
  version: Type.String({ description: "mdq's version (the root package.json's)" }),
  commit: Type.String({ description: "the git commit built, or 'unknown'" }),
});

/** `/health`, liveness: no API key, for load balancers and orchestrators. */
export function healthRoutes(app: FastifyInstance, opts: { network: string }): void {
  app.get(
    '/health',
    {
      schema: {
        tags: ['ops'],
        summary: 'Liveness: the process answers',
        security: [],
        response: { 200: Health },
      },
    },
    async () => ({ status: 'ok' as const, network: opts.network, ...buildInfo() }),
  );
}
