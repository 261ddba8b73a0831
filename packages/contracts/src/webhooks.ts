import { type Static, Type } from 'typebox';
import { Nullable, StringEnum } from './common';

export const WebhookEndpoint = Type.Object({
  endpointId: Type.String(),
  url: Type.String(),
  filter: Type.Object({}, { additionalProperties: true }),
  status: StringEnum(['active', 'paused']),
  failures: Type.Integer(),
  deliveredThrough: Type.String({ description: 'id of the last event delivered (or the start point)' }),
  createdAt: Type.String(),
  pausedAt: Nullable(Type.String()),
});
export type WebhookEndpoint = Static<typeof WebhookEndpoint>;

export const WebhookDelivery = Type.Object({
  eventId: Type.String(),
  attemptedAt: Type.String(),
  statusCode: Nullable(Type.Integer()),
  ok: Type.Boolean(),
  error: Nullable(Type.String()),
});
export type WebhookDelivery = Static<typeof WebhookDelivery>;
