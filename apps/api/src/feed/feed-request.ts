import { isAddress, normalizeAddress } from '@mdq/chain/address';
import type { EventStreamQuery } from '@mdq/contracts';
import type { Db } from '@mdq/db';
import {
  FEED_KINDS,
  FEED_START,
  type FeedFilter,
  type FeedKind,
  type FeedPosition,
  parseFeedEventId,
} from '@mdq/db/feed';
import type { Static } from 'typebox';
import { collectionIdsOf } from '../lib/resolve';
import { ApiError } from '../plugins/errors';

export type EventStreamQueryType = Static<typeof EventStreamQuery>;

const KINDS = new Set<string>(FEED_KINDS);

function items(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  return value
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v.length > 0);
}

function addresses(name: string, value: string | undefined): Set<string> | undefined {
  const list = items(value);
  if (!list) return undefined;
  for (const v of list) {
    if (!isAddress(v)) throw new ApiError(400, 'INVALID_PARAMETER', `'${name}' holds a bad address: ${v}`);
  }
  return new Set(list.map(normalizeAddress));
}

/** The consumer's filter, with (creator, collection) resolved to collection ids (404 when unknown). */
export async function feedFilterOf(db: Db, query: EventStreamQueryType): Promise<FeedFilter> {
  const filter: FeedFilter = {};
  const collections = addresses('collectionId', query.collectionId) ?? new Set<string>();
  if ((query.creator === undefined) !== (query.collection === undefined)) {
    throw new ApiError(400, 'MISSING_PARAMETER', "give both 'creator' and 'collection', or neither");
  }
  if (query.creator !== undefined && query.collection !== undefined) {
    for (const id of await collectionIdsOf(db, query.creator, query.collection)) collections.add(id);
  }
  if (collections.size > 0) filter.collectionIds = collections;
  const tokens = addresses('tokenId', query.tokenId);
  if (tokens) filter.tokenIds = tokens;
  const wallets = addresses('wallet', query.wallet);
  if (wallets) filter.wallets = wallets;
  const kinds = items(query.kinds);
  if (kinds) {
    const bad = kinds.filter((k) => !KINDS.has(k));
    if (bad.length > 0) {
      throw new ApiError(
        400,
        'INVALID_PARAMETER',
        `'kinds' has unknown kinds ${bad.join(', ')}; known: ${FEED_KINDS.join(', ')}`,
      );
    }
    filter.kinds = new Set(kinds as FeedKind[]);
  }
  const marketplaces = items(query.marketplace);
  if (marketplaces) filter.marketplaces = new Set(marketplaces);
  return filter;
}

/** Resume point: Last-Event-ID, else ?since=, else null (live only). */
export function feedStartOf(lastEventId: string | undefined, since: string | undefined): FeedPosition | null {
  const [name, value] = lastEventId ? ['Last-Event-ID', lastEventId] : ['since', since];
  if (value === undefined || value === '') return null;
  if (value === 'earliest') return FEED_START;
  const position = parseFeedEventId(value);
  if (!position) {
    throw new ApiError(
      400,
      'INVALID_PARAMETER',
      `'${name}' must be an event id '<version>:<eventIndex>' or 'earliest', got '${value}'`,
    );
  }
  return position;
}
