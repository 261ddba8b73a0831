import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  ERRORS,
  EventStreamQuery,
  ListOf,
  One,
  pageQuery,
  WebhookDelivery,
  WebhookEndpoint,
} from '@mdq/contracts';
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  findWebhookEndpoint,
  setWebhookStatus,
  webhookDeliveriesPage,
  webhookEndpointsPage,
  webhookFilterJson,
} from '@mdq/db/feed';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { feedFilterOf, feedStartOf } from '../feed/feed-request';
import { ApiError } from '../plugins/errors';
import type { RouteDeps } from './deps';

const { apiKey: _apiKey, ...filters } = EventStreamQuery.properties;

const WebhookCreateBody = Type.Object({
  url: Type.String({ format: 'uri', pattern: '^https?://', maxLength: 2048, description: 'http(s) target' }),
  ...filters,
});

const WebhookCreated = Type.Object({
  ...WebhookEndpoint.properties,
  secret: Type.String({ description: 'HMAC-SHA256 signing secret; shown only here' }),
});

const WebhookParams = Type.Object({ endpointId: Type.String({ maxLength: 64 }) });

const tags = ['webhooks'];
const notFound = (id: string) =>
  new ApiError(404, 'WEBHOOK_NOT_FOUND', `no webhook endpoint ${id} for this key`);

/** A key's webhook endpoints: each sees only its own. Deliveries run in the worker (BullMQ). */
export async function webhookRoutes(scope: FastifyInstance, { db }: RouteDeps): Promise<void> {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  const keyOf = (request: { apiKeyId?: string }) => request.apiKeyId ?? '';

  app.post(
    '/webhooks',
    {
      schema: {
        tags,
        summary:
          'Register a webhook endpoint with feed filters; events after `since` (default: now) are delivered',
        body: WebhookCreateBody,
        response: { 201: One(WebhookCreated), ...ERRORS },
      },
    },
    async (request, reply) => {
      const filter = await feedFilterOf(db, request.body);
      const after = feedStartOf(undefined, request.body.since);
      const created = await createWebhookEndpoint(db, {
        keyId: keyOf(request),
        url: request.body.url,
        filter: webhookFilterJson(filter),
        after,
      });
      const { keyId: _k, ...data } = created;
      return reply.code(201).send({ data });
    },
  );

  app.get(
    '/webhooks',
    {
      schema: {
        tags,
        summary: "This key's webhook endpoints, oldest first",
        querystring: Type.Object(pageQuery(20)),
        response: { 200: ListOf(WebhookEndpoint), ...ERRORS },
      },
    },
    async (request) => {
      const { page, limit, cursor } = request.query;
      const found = await webhookEndpointsPage(db, keyOf(request), { page, limit, cursor });
      return { ...found, data: found.data.map(({ keyId: _k, ...e }) => e) };
    },
  );

  app.get(
    '/webhooks/:endpointId/deliveries',
    {
      schema: {
        tags,
        summary: 'Delivery log of an endpoint, newest first',
        params: WebhookParams,
        querystring: Type.Object(pageQuery(50)),
        response: { 200: ListOf(WebhookDelivery), ...ERRORS },
      },
    },
    async (request) => {
      const { endpointId } = request.params;
      if (!(await findWebhookEndpoint(db, endpointId, keyOf(request)))) throw notFound(endpointId);
      const { page, limit, cursor } = request.query;
      return webhookDeliveriesPage(db, endpointId, { page, limit, cursor });
    },
  );

  for (const [action, status] of [
    ['pause', 'paused'],
    ['resume', 'active'],
  ] as const) {
    app.post(
      `/webhooks/:endpointId/${action}`,
      {
        schema: {
          tags,
          summary:
            action === 'pause'
              ? 'Pause deliveries (the backlog is kept)'
              : 'Resume deliveries from where they stopped',
          params: WebhookParams,
          response: { 200: One(WebhookEndpoint), ...ERRORS },
        },
      },
      async (request) => {
        const { endpointId } = request.params;
        if (!(await setWebhookStatus(db, endpointId, status, keyOf(request)))) throw notFound(endpointId);
        const found = await findWebhookEndpoint(db, endpointId, keyOf(request));
        if (!found) throw notFound(endpointId);
        const { keyId: _k, secret: _s, cursor: _c, ...data } = found;
        return { data };
      },
    );
  }

  app.delete(
    '/webhooks/:endpointId',
    {
      schema: {
        tags,
        summary: 'Delete an endpoint and its delivery log',
        params: WebhookParams,
        response: { 204: Type.Null(), ...ERRORS },
      },
    },
    async (request, reply) => {
      const { endpointId } = request.params;
      if (!(await deleteWebhookEndpoint(db, endpointId, keyOf(request)))) throw notFound(endpointId);
      return reply.code(204).send(null);
    },
  );
}
