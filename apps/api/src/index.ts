export { type AppOptions, buildApp } from './app';
export { ApiError, type ErrorBody } from './plugins/errors';
export { type RunningApi, startApi } from './server';
