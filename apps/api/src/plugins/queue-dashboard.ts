import { timingSafeEqual } from 'node:crypto';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import { createRedis, dedupedRedisSink, QUEUE_NAMES, reportErrors } from '@mdq/jobs';
import { Queue } from 'bullmq';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { registerSecurityHeaders } from './security-headers';

export interface QueueDashboardOptions {
  redisUrl: string;
  prefix: string;
  adminKey: string;
}

const DASHBOARD_PATH = '/admin/queues';

/**
 * bull-board over the worker's queues at /admin/queues: depth, failures with their stack, retry and
 * clean buttons. Behind the admin key (not an API key: it can delete jobs), sent as `x-admin-key`
 * or as the password of HTTP basic auth so that a browser can open the page.
 */
export async function registerQueueDashboard(
  app: FastifyInstance,
  opts: QueueDashboardOptions,
): Promise<void> {
  // A connection of its own: the rate limiter's fails fast on purpose, BullMQ's must wait out a blip.
  // Its failures and its queues': one line per distinct failure with a count, no stack per attempt.
  const onError = dedupedRedisSink(({ reason, count }) =>
    app.log.warn({ err: reason, count }, 'queue dashboard: Redis unreachable'),
  );
  const redis = createRedis(opts.redisUrl, onError);
  const queues = Object.values(QUEUE_NAMES).map((name) =>
    reportErrors(onError, new Queue(name, { connection: redis, prefix: opts.prefix })),
  );
  const serverAdapter = new FastifyAdapter();
  serverAdapter.setBasePath(DASHBOARD_PATH);
  createBullBoard({ queues: queues.map((q) => new BullMQAdapter(q)), serverAdapter });
  await app.register(
    async (scope) => {
      scope.addHook('onRequest', async (request, reply) => {
        const given = adminKeyOf(request);
        if (given !== null && same(given, opts.adminKey)) return;
        // Answered here rather than thrown: bull-board's routes have an error handler of their own.
        return reply.code(401).header('www-authenticate', 'Basic realm="mdq admin", charset="UTF-8"').send({
          statusCode: 401,
          error: 'Unauthorized',
          code: 'INVALID_ADMIN_KEY',
          message: "the queue dashboard needs the admin key ('x-admin-key' or basic auth)",
        });
      });
      await registerSecurityHeaders(scope);
      await scope.register(serverAdapter.registerPlugin());
    },
    { prefix: DASHBOARD_PATH },
  );
  app.addHook('onClose', async () => {
    await Promise.all(queues.map((q) => q.close()));
    redis.disconnect();
  });
}

function adminKeyOf(request: FastifyRequest): string | null {
  const header = request.headers['x-admin-key'];
  if (typeof header === 'string') return header;
  const auth = request.headers.authorization;
  if (auth?.startsWith('Basic ')) {
    const decoded = Buffer.from(auth.slice(6), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    return colon >= 0 ? decoded.slice(colon + 1) : null;
  }
  return null;
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
