export * from './metrics';
export { type MetricsServer, serveMetrics } from './serve';
