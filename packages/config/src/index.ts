export { type BuildInfo, buildInfo } from './build-info';
export { type Config, loadConfig } from './config';
export { ConfigError } from './config-error';
export { DEFAULTS, NETWORKS, type Network } from './defaults';
export { FEED_DEFAULTS, type FeedConfig } from './feed';
export { originAllowed, parseOrigin } from './origins';
export { OVERLOAD_DEFAULTS, type OverloadConfig } from './overload';
export type { Env } from './read-env';
export { RETENTION_DEFAULTS, type RetentionConfig } from './retention';
