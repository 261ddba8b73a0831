import type { PageRequest } from '@mdq/db';

/** The paging part of a validated querystring. */
export function pageOf(query: { page: number; limit: number; cursor?: string | undefined }): PageRequest {
  return { page: query.page, limit: query.limit, cursor: query.cursor };
}
