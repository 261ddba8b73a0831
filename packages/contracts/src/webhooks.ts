import { type Static, Type } from 'typebox';
import { Nullable } from './common';
import { EventStreamQuery } from './events';

const { apiKey: _apiKey, ...filters } = EventStreamQuery.properties;

export const WebhookCreateBody = Type.Object({
  url: Type.String({ format: 'uri', pattern: '^https?://', maxLength: 2048, description: 'http(s) target' }),
  ...filters,
});

export const WebhookEndpoint = Type.Object({
  endpointId: Type.String(),
  url: Type.String(),
  filter: Type.Object({}, { additionalProperties: true }),
  status: Type.Union([Type.Literal('active'), Type.Literal('paused')]),
  failures: Type.Integer(),
  deliveredThrough: Type.String({ description: 'id of the last event delivered (or the start point)' }),
  createdAt: Type.String(),
  pausedAt: Nullable(Type.String()),
});
export type WebhookEndpoint = Static<typeof WebhookEndpoint>;

export const WebhookCreated = Type.Object({
  ...WebhookEndpoint.properties,
  secret: Type.String({ description: 'HMAC-SHA256 signing secret; shown only here' }),
});

export const WebhookParams = Type.Object({ endpointId: Type.String({ maxLength: 64 }) });

export const WebhookDelivery = Type.Object({
  eventId: Type.String(),
  attemptedAt: Type.String(),
  statusCode: Nullable(Type.Integer()),
  ok: Type.Boolean(),
  error: Nullable(Type.String()),
});
export type WebhookDelivery = Static<typeof WebhookDelivery>;
