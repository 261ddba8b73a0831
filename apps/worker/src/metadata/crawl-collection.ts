import { createHash } from 'node:crypto';
import type { Db } from '@mdq/db';
import {
  listMetadataDue,
  type MetadataOutcome,
  type MetadataTarget,
  rarityIsStale,
  saveMetadataOutcomes,
} from '@mdq/db/worker';
import { computeCollectionRarity } from '../tasks/rarity';
import { allowList } from '../uri/address-policy';
import { type GatewayConfig, trustedOriginSet } from '../uri/uri-schemes';
import { type DocumentFetchOptions, fetchDocument } from './fetch-document';
import { HostGate } from './host-gate';
import { parseDocument } from './parse-document';

export interface MetadataCrawlOptions extends GatewayConfig {
  /** One document: every gateway, redirect and retry (default 10 s). */
  timeoutMs?: number;
  /** Largest document read (default 1 MiB); a larger one is an error. */
  maxBytes?: number;
  maxRedirects?: number;
  /** Transient failures are retried after this, doubling, within the document's deadline (250 ms). */
  retryDelayMs?: number;
  retries?: number;
  /** Requests in flight per host (8) and the least gap between two starts to one host (20 ms: 50/s). */
  hostConcurrency?: number;
  hostIntervalMs?: number;
  /** A fetched document is fetched again this long after (7 days; docs/DECISIONS.md). */
  refreshAgeMs?: number;
  /** First retry after a failure; doubles per consecutive failure, capped at refreshAgeMs (5 min). */
  errorRetryMs?: number;
  /** Documents per crawl job; a collection with more due gets another job (200). */
  batchSize?: number;
  /** Private addresses or CIDRs that may be fetched anyway (tests only). */
  allowPrivateAddresses?: readonly string[];
  /** The per-host gate; one per worker process (made from the options when absent). */
  gate?: HostGate;
  /**
   * How the crawl's rarity recompute runs once its documents changed the collection's traits. The
   * worker's job hands it to the rarity pacer (a crawl follows every mint of a collection whose traits
   * live in documents); by default it runs here and now (the bench's build, the tests).
   */
  recomputeRarity?: (collectionId: string, now: Date) => Promise<unknown>;
}

export const METADATA_DEFAULTS = {
  timeoutMs: 10_000,
  maxBytes: 1_048_576,
  maxRedirects: 3,
  retryDelayMs: 250,
  retries: 2,
  hostConcurrency: 8,
  hostIntervalMs: 20,
  refreshAgeMs: 7 * 86_400_000,
  errorRetryMs: 5 * 60_000,
  batchSize: 200,
} as const;

export interface CrawlResult {
  fetched: number;
  failed: number;
  /** This batch changed the collection's traits (its rarity is recomputed after the last batch). */
  traitsChanged: boolean;
  /** More documents of the collection were due than one batch takes. */
  more: boolean;
  /**
   * Where the time went (ms), for the bench: wall clock of listing what is due, of fetching and
   * parsing every document (concurrently), of the write (and rarity); and the per-document fetch and
   * parse times summed over the concurrent documents.
   */
  phases: { listMs: number; fetchWallMs: number; writeMs: number; fetchMs: number; parseMs: number };
}

/** The gate a worker process shares across crawl jobs. */
export function metadataGate(options: MetadataCrawlOptions): HostGate {
  return (
    options.gate ??
    new HostGate(
      options.hostConcurrency ?? METADATA_DEFAULTS.hostConcurrency,
      options.hostIntervalMs ?? METADATA_DEFAULTS.hostIntervalMs,
    )
  );
}

/**
 * One crawl of a collection: its own document and up to `batchSize` token documents that are due
 * (never fetched, mutated since, past their refresh time, or asked for), fetched concurrently
 * through the per-host gate, parsed, validated and stored in one transaction. Never throws for what a
 * URI or its host does: every failure is stored with its reason and retried later with backoff. When
 * documents changed a token's traits, the collection's OpenRarity is recomputed after the crawl's
 * last batch, as a collection-changed job would.
 */
export async function crawlCollectionMetadata(
  db: Db,
  collectionId: string,
  options: MetadataCrawlOptions,
  now: () => Date = () => new Date(),
): Promise<CrawlResult> {
  const batchSize = options.batchSize ?? METADATA_DEFAULTS.batchSize;
  const listStart = performance.now();
  const targets = await listMetadataDue(db, collectionId, now(), batchSize);
  const phases = {
    listMs: performance.now() - listStart,
    fetchWallMs: 0,
    writeMs: 0,
    fetchMs: 0,
    parseMs: 0,
  };
  const fetchOptions: DocumentFetchOptions = {
    ...options,
    timeoutMs: options.timeoutMs ?? METADATA_DEFAULTS.timeoutMs,
    maxBytes: options.maxBytes ?? METADATA_DEFAULTS.maxBytes,
    maxRedirects: options.maxRedirects ?? METADATA_DEFAULTS.maxRedirects,
    retryDelayMs: options.retryDelayMs ?? METADATA_DEFAULTS.retryDelayMs,
    retries: options.retries ?? METADATA_DEFAULTS.retries,
    gate: metadataGate(options),
    fetch: {
      allowed: allowList(options.allowPrivateAddresses ?? []),
      trustedOrigins: trustedOriginSet(options.trustedOrigins),
      userAgent: 'mdq-metadata/1',
    },
  };
  const fetchStart = performance.now();
  const outcomes = await Promise.all(
    targets.map((target) => crawlOne(target, fetchOptions, options, phases, now)),
  );
  const writeStart = performance.now();
  phases.fetchWallMs = writeStart - fetchStart;
  const changed = await saveMetadataOutcomes(db, outcomes);
  const more = targets.length >= batchSize;
  // Once per crawl of a collection, after its last batch: a first crawl of a 10k-token collection is
  // 50 batches, and one rarity run of the whole collection per batch would be 50 runs. Earlier
  // batches' changes are caught by the stale mark.
  if (!more && (changed.size > 0 || (await rarityIsStale(db, collectionId)))) {
    const recompute =
      options.recomputeRarity ?? ((id: string, at: Date) => computeCollectionRarity(db, id, at));
    await recompute(collectionId, now());
  }
  phases.writeMs = performance.now() - writeStart;
  return {
    fetched: outcomes.length,
    failed: outcomes.filter((o) => o.status === 'error').length,
    traitsChanged: changed.size > 0,
    more,
    phases,
  };
}

async function crawlOne(
  target: MetadataTarget,
  fetchOptions: DocumentFetchOptions,
  options: MetadataCrawlOptions,
  phases: CrawlResult['phases'],
  now: () => Date,
): Promise<MetadataOutcome> {
  const empty = {
    contentHash: null,
    name: null,
    description: null,
    image: null,
    animationUrl: null,
    externalUrl: null,
    attributes: null,
    files: null,
    category: null,
    report: null,
  };
  const fetchStart = performance.now();
  try {
    if (!target.uri?.trim()) throw new Error(`${target.kind} has no URI`);
    const fetched = await fetchDocument(target.uri, fetchOptions);
    const parseStart = performance.now();
    phases.fetchMs += parseStart - fetchStart;
    const parsed = parseDocument(fetched.body, fetched.contentType, target.uri, target.kind);
    const contentHash = createHash('sha256').update(fetched.body).digest('hex');
    phases.parseMs += performance.now() - parseStart;
    const fetchedAt = now();
    return {
      target,
      fetchedAt,
      refreshAt: new Date(fetchedAt.getTime() + (options.refreshAgeMs ?? METADATA_DEFAULTS.refreshAgeMs)),
      status: 'ok',
      error: null,
      ...parsed,
      contentHash,
    };
  } catch (err) {
    phases.fetchMs += performance.now() - fetchStart;
    const fetchedAt = now();
    const age = options.refreshAgeMs ?? METADATA_DEFAULTS.refreshAgeMs;
    // Consecutive failures back off: 5 min, 10, 20 ... up to the refresh age.
    const failures = (target.previousStatus === 'error' ? target.previousAttempts : 0) + 1;
    const retry = Math.min(
      age,
      (options.errorRetryMs ?? METADATA_DEFAULTS.errorRetryMs) * 2 ** (failures - 1),
    );
    return {
      target,
      fetchedAt,
      refreshAt: new Date(fetchedAt.getTime() + retry),
      status: 'error',
      error: (err instanceof Error ? err.message : String(err)).slice(0, 500),
      ...empty,
    };
  }
}
