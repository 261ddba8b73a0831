import type { ReadState } from '@mdq/db';
import type { PageRequest } from '@mdq/db/read';

/**
 * The paging part of a validated request: page, limit and cursor from its querystring, and the
 * read version its freshness hook took (totals are counted once per version).
 */
export function pageOf(request: {
  query: { page: number; limit: number; cursor?: string | undefined };
  readState?: ReadState | undefined;
}): PageRequest {
  const { page, limit, cursor } = request.query;
  return { page, limit, cursor, version: request.readState?.version };
}
