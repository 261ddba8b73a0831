export * from './feed-events';
export * from './feed-rows';
export * from './ranking-changes';
export * from './webhooks';
