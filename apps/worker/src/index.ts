export type { ChangeLag } from './change-lag';
export { processCollectionChanged } from './jobs/collection-changed';
export {
  type AnyJob,
  type CoalesceWindows,
  defineJob,
  type JobDefinition,
  type JobSchedule,
  type NoPayload,
  type WorkerContext,
} from './jobs/define-job';
export { JOBS } from './jobs/registry';
export type { WorkerLogger } from './logger';
export { MediaCache } from './media/media-cache';
export {
  createMediaRenderer,
  MediaNotFoundError,
  type MediaRenderer,
  type MediaRendererOptions,
  type Thumbnail,
} from './media/media-renderer';
export { PRERENDER_DEFAULTS, type PrerenderResult, prerenderThumbnails } from './media/prerender';
export {
  MediaRefusedError,
  renderThumbnail,
  THUMBNAIL_FORMATS,
  THUMBNAIL_WIDTHS,
  type ThumbnailFormat,
  type ThumbnailWidth,
} from './media/render-thumbnail';
export {
  crawlCollectionMetadata,
  METADATA_DEFAULTS,
  type MetadataCrawlOptions,
  metadataGate,
} from './metadata/crawl-collection';
export { metadataCrawlProducer } from './metadata-crawl-producer';
export { COLLECTION_RANKINGS, FEED_RANKING_TOP, floorChange } from './rankings/definitions';
export { percentileRanks } from './rankings/percentile';
export { scoreCandidates } from './rankings/score';
export { SCHEDULES, type ScheduleDefinition } from './schedules';
export { loadSignals } from './signals/load-signals';
export { parseSignals, SignalFormatError } from './signals/parse-signals';
export { closeOnSignals, startWorker, type WorkerHandle } from './start-worker';
export { computeAllRankings, computeCollectionRanking, computeLootboxRankings } from './tasks/rankings';
export { computeAllRarity, computeCollectionRarity } from './tasks/rarity';
export { type RecomputeTimings, recomputeAll } from './tasks/recompute-all';
export { snapshotCollections, snapshotInventories } from './tasks/snapshots';
export {
  resolveCollectionUri,
  URI_CACHE_DEFAULTS,
  type UriCacheOptions,
  type UriCacheResult,
} from './uri/resolve-collection-uri';
export { safeFetch } from './uri/safe-fetch';
export { trustedOriginSet } from './uri/uri-schemes';
export { deliverWebhookBacklog, type WebhookDeliveryOptions } from './webhooks/deliver-webhooks';
export { signWebhook, verifyWebhook, WEBHOOK_HEADERS } from './webhooks/signature';
export {
  type StartWebhookDeliveryOptions,
  startWebhookDelivery,
  WEBHOOK_QUEUE,
  webhookBackoffMs,
} from './webhooks/webhook-delivery';
export type { StartWorkerOptions } from './worker-options';
