import { QUEUE_NAMES } from '@mdq/jobs';
import { resolveCollectionUri } from '../uri/resolve-collection-uri';
import { defineJob } from './define-job';

/** Prefixed so it is never all digits (and no colon: BullMQ 6 refuses one in custom ids). */
function uriCacheJobId(collectionId: string): string {
  return `uri-${collectionId}`;
}

/** One collection's image for the URI cache; remote faults are stored, not thrown. */
export const uriResolveJob = defineJob<{ collectionId: string }>({
  name: 'resolve',
  queue: QUEUE_NAMES.uriCache,
  coalesce: { key: (payload) => uriCacheJobId(payload.collectionId) },
  async run(ctx, payload) {
    const result = await resolveCollectionUri(ctx.db, payload.collectionId, ctx.uri);
    return { status: result.status };
  },
});
