import type { OutgoingHttpHeaders } from 'node:http';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ERRORS, EventStreamQuery, FeedEvent } from '@mdq/contracts';
import type { FeedFilter, FeedPosition } from '@mdq/db/feed';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { WebSocket } from 'ws';
import { feedFilterOf, feedStartOf } from '../feed/feed-request';
import { type FeedService, feedData } from '../feed/feed-service';
import { ApiError } from '../plugins/errors';
import type { RouteDeps } from './deps';

const tags = ['events'];
const WS_HIGH_WATER = 1 << 20;

/** Resolves once the socket can take more (or is gone): the session waits, its queue fills. */
function drained(reply: FastifyReply): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      reply.raw.off('drain', done);
      reply.raw.off('close', done);
      resolve();
    };
    reply.raw.once('drain', done);
    reply.raw.once('close', done);
  });
}

function lastEventIdOf(header: string | string[] | undefined): string | undefined {
  return Array.isArray(header) ? header[0] : header;
}

export async function eventRoutes(scope: FastifyInstance, deps: RouteDeps & { feed: FeedService }) {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  const { feed, readDb: db } = deps;

  app.get(
    '/events/stream',
    {
      config: { apiKeyInQuery: true },
      schema: {
        tags,
        summary:
          'Live feed (Server-Sent Events): market, token, lootbox, floor and ranking events in chain order, resumable with Last-Event-ID or ?since=',
        querystring: EventStreamQuery,
        produces: ['text/event-stream'],
        response: {
          200: {
            description: 'a stream of `id: <event id>` + `data: <event JSON>` blocks',
            content: { 'text/event-stream': { schema: FeedEvent } },
          },
          ...ERRORS,
        },
      },
    },
    async (request, reply) => {
      const filter = await feedFilterOf(db, request.query);
      const after = feedStartOf(lastEventIdOf(request.headers['last-event-id']), request.query.since);
      const release = feed.limits.acquire(request.apiKeyId ?? '');
      // The headers set so far (CORS for an allowed origin, rate limit, freshness) go out with the
      // stream's own: once hijacked, Fastify no longer writes them.
      const headers = reply.getHeaders() as OutgoingHttpHeaders;
      reply.hijack();
      const raw = reply.raw;
      raw.writeHead(200, {
        ...headers,
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache, no-transform',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      raw.write('retry: 1000\n\n');
      const session = feed.open(filter, after, async (event) => {
        if (!raw.write(`id: ${event.id}\ndata: ${feedData(event)}\n\n`)) await session.until(drained(reply));
      });
      const heartbeat = setInterval(() => raw.write(': ping\n\n'), feed.options.heartbeatMs);
      const end = () => {
        clearInterval(heartbeat);
        session.close();
        release();
        feed.forget(session);
      };
      raw.on('close', end);
      session
        .run()
        .catch((error: unknown) => request.log.warn({ err: error }, 'event stream ended by an error'))
        .finally(() => {
          end();
          // A client that stopped reading would hold the connection (and a shutdown) open: cut it;
          // it resumes from its last id like any dropped stream.
          if (raw.writableNeedDrain) raw.destroy();
          else raw.end();
        });
    },
  );

  // Filters, resume point and the connection slot are settled before the upgrade, so that a bad
  // request is a plain HTTP 4xx the client can read, not a closed socket.
  const prepared = new WeakMap<
    object,
    { filter: FeedFilter; after: FeedPosition | null; release: () => void }
  >();

  app.get(
    '/events/ws',
    {
      websocket: true,
      config: { apiKeyInQuery: true },
      schema: {
        tags,
        summary:
          'Live feed over WebSocket: the same events (one JSON message each), filters and resume (?since=) as the SSE stream',
        querystring: EventStreamQuery,
        response: {
          101: {
            description:
              'Switching Protocols (send Upgrade: websocket): then one WebSocket text message per event, ' +
              'this JSON object; the server closes with 1001 when the stream ends',
            content: { 'application/json': { schema: FeedEvent } },
          },
          ...ERRORS,
        },
      },
      preHandler: async (request) => {
        if (request.headers.upgrade?.toLowerCase() !== 'websocket') {
          throw new ApiError(
            400,
            'WEBSOCKET_REQUIRED',
            'this route only speaks WebSocket (Upgrade: websocket)',
          );
        }
        const filter = await feedFilterOf(db, request.query);
        const after = feedStartOf(undefined, request.query.since);
        const release = feed.limits.acquire(request.apiKeyId ?? '');
        prepared.set(request, { filter, after, release });
      },
    },
    (socket: WebSocket, request) => {
      const ready = prepared.get(request);
      if (!ready) {
        socket.close(1011, 'not prepared');
        return;
      }
      const session = feed.open(ready.filter, ready.after, async (event) => {
        if (socket.readyState !== socket.OPEN) return;
        const data = feedData(event);
        if (socket.bufferedAmount < WS_HIGH_WATER) socket.send(data);
        else await session.until(new Promise<void>((resolve) => socket.send(data, () => resolve())));
      });
      const end = () => {
        session.close();
        ready.release();
        feed.forget(session);
      };
      socket.on('close', end);
      session
        .run()
        .catch((error: unknown) => request.log.warn({ err: error }, 'event socket ended by an error'))
        .finally(() => {
          end();
          if (socket.bufferedAmount >= WS_HIGH_WATER) socket.terminate();
          else socket.close(1001, 'stream ended');
        });
    },
  );
}
