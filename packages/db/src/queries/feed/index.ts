export * from './feed-events';
export * from './feed-rows';
export * from './webhooks';
