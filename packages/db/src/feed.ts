/** `@mdq/db/feed`: the live feed's events (SSE, WebSocket) and webhook endpoints and deliveries. */
export * from './queries/feed/index';
