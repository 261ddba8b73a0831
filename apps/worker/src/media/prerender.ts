import { type Db, mediaRendersWaiting, rankedCollectionIds, recordMediaRender } from '@mdq/db';
import { tokensOfCollections } from '@mdq/db/read';
import type { MediaRenderer } from './media-renderer';
import type { ThumbnailFormat, ThumbnailWidth } from './render-thumbnail';

export interface PrerenderOptions {
  /** The rankings whose collections are pre-rendered (default trending and top). */
  rankings: readonly string[];
  /** Places of each ranking (default 20). */
  top: number;
  /** Tokens of each collection: the first page of tokens-by-collection (default 24). */
  tokensPerCollection: number;
  /** The size the responses' thumbnailUrl names (256-pixel WebP). */
  width: ThumbnailWidth;
  format: ThumbnailFormat;
}

export const PRERENDER_DEFAULTS: PrerenderOptions = {
  rankings: ['trending', 'top'],
  top: 20,
  tokensPerCollection: 24,
  width: 256,
  format: 'webp',
};

export interface PrerenderResult {
  rendered: number;
  cached: number;
  failed: number;
  /** Failed before and not due again yet (backoff). */
  waiting: number;
}

/**
 * Pre-renders the thumbnails a front page shows first: the cover of each ranked collection and
 * its first page of tokens, through the API's renderer and disk cache (one implementation), so
 * that the API's first request is a cache hit. A failure is recorded with its reason and retried
 * on a later run after its backoff; it never fails the job, and the API never sees it.
 */
export async function prerenderThumbnails(
  db: Db,
  media: MediaRenderer,
  now: Date,
  options: PrerenderOptions = PRERENDER_DEFAULTS,
): Promise<PrerenderResult> {
  const collections = await rankedCollectionIds(db, options.rankings, options.top);
  const ids: string[] = [];
  for (const collectionId of collections) {
    ids.push(collectionId);
    const page = await tokensOfCollections(db, [collectionId], {
      page: 1,
      limit: options.tokensPerCollection,
    });
    for (const token of page.data) if (token.tokenUri) ids.push(token.tokenId);
  }
  const waiting = await mediaRendersWaiting(db, ids, options.width, options.format, now);
  const result: PrerenderResult = { rendered: 0, cached: 0, failed: 0, waiting: waiting.size };
  // One at a time: the worker shares the machine with the indexer, and sharp uses its own threads.
  for (const mediaId of ids) {
    if (waiting.has(mediaId)) continue;
    const key = { mediaId, width: options.width, format: options.format };
    try {
      const thumbnail = await media.thumbnail(mediaId, options.width, options.format);
      if (thumbnail.fromCache) result.cached++;
      else result.rendered++;
      await recordMediaRender(db, key, { ok: true }, now);
    } catch (error) {
      result.failed++;
      const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      await recordMediaRender(db, key, { ok: false, reason }, now);
    }
  }
  return result;
}
