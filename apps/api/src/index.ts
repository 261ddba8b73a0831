export { type MetadataReport, validateMetadata } from '@mdq/worker/validate-metadata';
export { type AppOptions, buildApp } from './app';
export { type ApiServers, apiWorkerCount, startApiServers } from './cluster';
export { ApiError, type ErrorBody } from './plugins/errors';
export type { CollectionUriResolver } from './routes/deps';
export { type MediaService, thumbnailPath } from './routes/media';
export { type RunningApi, type StartApiOptions, startApi } from './server';
