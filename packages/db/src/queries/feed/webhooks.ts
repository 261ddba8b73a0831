import { randomBytes } from 'node:crypto';
import type { WebhookDelivery, WebhookEndpoint as WebhookEndpointAnswer } from '@mdq/contracts';
import { sql } from 'kysely';
import type { Db } from '../../database';
import type { WebhookFilterJson, WebhookStatus } from '../../schema/webhooks';
import { fetchPage, type Page, type PageKey, type PageRequest } from '../api/pagination';
import { FEED_START, type FeedFilter, type FeedKind, type FeedPosition, feedEventId } from './feed-events';
import { feedHead } from './feed-rows';

/** An endpoint as stored: the API's answer, with the key it belongs to and its filter typed. */
export type WebhookEndpoint = Omit<WebhookEndpointAnswer, 'filter'> & {
  keyId: string;
  filter: WebhookFilterJson;
};

export type { WebhookDelivery };

type EndpointRow = {
  endpoint_id: string;
  key_id: string;
  url: string;
  filter: WebhookFilterJson;
  status: WebhookStatus;
  failures: number;
  cursor_version: number;
  cursor_event_index: number;
  created_at: Date;
  paused_at: Date | null;
};

const toEndpoint = (r: EndpointRow): WebhookEndpoint => ({
  endpointId: r.endpoint_id,
  keyId: r.key_id,
  url: r.url,
  filter: r.filter,
  status: r.status,
  failures: r.failures,
  deliveredThrough: feedEventId({ version: Number(r.cursor_version), eventIndex: r.cursor_event_index }),
  createdAt: r.created_at.toISOString(),
  pausedAt: r.paused_at?.toISOString() ?? null,
});

const COLUMNS = [
  'endpoint_id',
  'key_id',
  'url',
  'filter',
  'status',
  'failures',
  'cursor_version',
  'cursor_event_index',
  'created_at',
  'paused_at',
] as const;

/** The JSON an endpoint stores, and the set-based filter the feed matches with. */
export function webhookFeedFilter(json: WebhookFilterJson): FeedFilter {
  const filter: FeedFilter = {};
  if (json.collectionIds?.length) filter.collectionIds = new Set(json.collectionIds);
  if (json.tokenIds?.length) filter.tokenIds = new Set(json.tokenIds);
  if (json.wallets?.length) filter.wallets = new Set(json.wallets);
  if (json.kinds?.length) filter.kinds = new Set(json.kinds as FeedKind[]);
  if (json.marketplaces?.length) filter.marketplaces = new Set(json.marketplaces);
  return filter;
}

export function webhookFilterJson(filter: FeedFilter): WebhookFilterJson {
  const out: WebhookFilterJson = {};
  if (filter.collectionIds) out.collectionIds = [...filter.collectionIds];
  if (filter.tokenIds) out.tokenIds = [...filter.tokenIds];
  if (filter.wallets) out.wallets = [...filter.wallets];
  if (filter.kinds) out.kinds = [...filter.kinds];
  if (filter.marketplaces) out.marketplaces = [...filter.marketplaces];
  return out;
}

/**
 * Registers an endpoint delivering every matching event after `after` (null: from now, the feed's
 * head); the secret is shown once.
 */
export async function createWebhookEndpoint(
  db: Db,
  input: { keyId: string; url: string; filter: WebhookFilterJson; after: FeedPosition | null },
): Promise<WebhookEndpoint & { secret: string }> {
  const after = input.after ?? (await feedHead(db)) ?? FEED_START;
  const endpointId = `wh_${randomBytes(8).toString('hex')}`;
  const secret = `whsec_${randomBytes(24).toString('base64url')}`;
  const row = await db
    .insertInto('webhook_endpoints')
    .values({
      endpoint_id: endpointId,
      key_id: input.keyId,
      url: input.url,
      secret,
      filter: JSON.stringify(input.filter),
      cursor_version: after.version,
      cursor_event_index: after.eventIndex,
    })
    .returning(COLUMNS)
    .executeTakeFirstOrThrow();
  return { ...toEndpoint(row as EndpointRow), secret };
}

export async function listWebhookEndpoints(db: Db, keyId?: string): Promise<WebhookEndpoint[]> {
  let q = db.selectFrom('webhook_endpoints').select(COLUMNS).orderBy('created_at').orderBy('endpoint_id');
  if (keyId !== undefined) q = q.where('key_id', '=', keyId);
  return ((await q.execute()) as EndpointRow[]).map(toEndpoint);
}

type EndpointPageRow = EndpointRow & { created_us: number };

/** Creation order (µs since the epoch: a safe integer for a cursor), then the id. */
const ENDPOINT_KEYS: PageKey<EndpointPageRow>[] = [
  {
    expr: sql`(extract(epoch FROM e.created_at) * 1000000)::bigint`,
    dir: 'asc',
    kind: 'int',
    field: 'created_us',
  },
  { expr: sql`e.endpoint_id`, dir: 'asc', kind: 'text', field: 'endpoint_id' },
];

/**
 * A key's endpoints, paged like every list. Counted on every page (no read version): endpoints
 * are written by the API, not by the indexer whose version keys the totals cache.
 */
export async function webhookEndpointsPage(
  db: Db,
  keyId: string,
  request: Omit<PageRequest, 'version'>,
): Promise<Page<WebhookEndpoint>> {
  return fetchPage(
    db,
    {
      keys: ENDPOINT_KEYS,
      rows: (p) => sql<EndpointPageRow>`
        SELECT ${sql.join(COLUMNS.map((c) => sql.ref(`e.${c}`)))},
               (extract(epoch FROM e.created_at) * 1000000)::bigint::float8 AS created_us
          FROM webhook_endpoints e
         WHERE e.key_id = ${keyId} AND ${p.after()}
         ORDER BY ${p.order} ${p.window}`,
      count: sql`SELECT count(*)::int AS total FROM webhook_endpoints WHERE key_id = ${keyId}`,
      map: toEndpoint,
    },
    request,
  );
}

/** An endpoint with what delivering needs (its secret and cursor); keyId scopes API callers. */
export async function findWebhookEndpoint(db: Db, endpointId: string, keyId?: string) {
  let q = db
    .selectFrom('webhook_endpoints')
    .select([...COLUMNS, 'secret'])
    .where('endpoint_id', '=', endpointId);
  if (keyId !== undefined) q = q.where('key_id', '=', keyId);
  const row = await q.executeTakeFirst();
  if (!row) return null;
  return {
    ...toEndpoint(row as EndpointRow),
    secret: row.secret,
    cursor: { version: Number(row.cursor_version), eventIndex: row.cursor_event_index } as FeedPosition,
  };
}

export async function deleteWebhookEndpoint(db: Db, endpointId: string, keyId?: string): Promise<boolean> {
  let q = db.deleteFrom('webhook_endpoints').where('endpoint_id', '=', endpointId);
  if (keyId !== undefined) q = q.where('key_id', '=', keyId);
  return Number((await q.executeTakeFirst()).numDeletedRows) > 0;
}

/** Pause, or resume (which clears the failure count; the backlog is still after the cursor). */
export async function setWebhookStatus(
  db: Db,
  endpointId: string,
  status: WebhookStatus,
  keyId?: string,
): Promise<boolean> {
  let q = db
    .updateTable('webhook_endpoints')
    .set(status === 'paused' ? { status, paused_at: sql`now()` } : { status, paused_at: null, failures: 0 })
    .where('endpoint_id', '=', endpointId);
  if (keyId !== undefined) q = q.where('key_id', '=', keyId);
  return Number((await q.executeTakeFirst()).numUpdatedRows) > 0;
}

export async function activeWebhookEndpointIds(db: Db): Promise<string[]> {
  const rows = await db
    .selectFrom('webhook_endpoints')
    .select('endpoint_id')
    .where('status', '=', 'active')
    .execute();
  return rows.map((r) => r.endpoint_id);
}

/** A 2xx: the cursor moves past the event and the failure count resets. */
export async function recordWebhookSuccess(
  db: Db,
  endpointId: string,
  position: FeedPosition,
  statusCode: number,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('webhook_endpoints')
      .set({ cursor_version: position.version, cursor_event_index: position.eventIndex, failures: 0 })
      .where('endpoint_id', '=', endpointId)
      .execute();
    await trx
      .insertInto('webhook_deliveries')
      .values({ endpoint_id: endpointId, event_id: feedEventId(position), status_code: statusCode, ok: true })
      .execute();
  });
}

/** A failed attempt; the endpoint is paused once it has failed `pauseAfter` times in a row. */
export async function recordWebhookFailure(
  db: Db,
  endpointId: string,
  eventId: string,
  failure: { statusCode: number | null; error: string },
  pauseAfter: number,
): Promise<{ paused: boolean }> {
  return db.transaction().execute(async (trx) => {
    await trx
      .insertInto('webhook_deliveries')
      .values({
        endpoint_id: endpointId,
        event_id: eventId,
        status_code: failure.statusCode,
        ok: false,
        error: failure.error.slice(0, 500),
      })
      .execute();
    const row = await trx
      .updateTable('webhook_endpoints')
      .set({
        failures: sql`failures + 1`,
        status: sql`CASE WHEN failures + 1 >= ${pauseAfter} THEN 'paused' ELSE status END`,
        paused_at: sql`CASE WHEN failures + 1 >= ${pauseAfter} THEN now() ELSE paused_at END`,
      })
      .where('endpoint_id', '=', endpointId)
      .returning('status')
      .executeTakeFirst();
    return { paused: row?.status === 'paused' };
  });
}

type DeliveryRow = {
  delivery_id: string;
  event_id: string;
  attempted_at: Date;
  status_code: number | null;
  ok: boolean;
  error: string | null;
};

const toDelivery = (r: DeliveryRow): WebhookDelivery => ({
  eventId: r.event_id,
  attemptedAt: r.attempted_at.toISOString(),
  statusCode: r.status_code,
  ok: r.ok,
  error: r.error,
});

const DELIVERY_KEYS: PageKey<DeliveryRow>[] = [
  { expr: sql`d.delivery_id`, dir: 'desc', kind: 'u64', field: 'delivery_id' },
];

/** An endpoint's delivery log, newest first, paged like every list (counted on every page). */
export async function webhookDeliveriesPage(
  db: Db,
  endpointId: string,
  request: Omit<PageRequest, 'version'>,
): Promise<Page<WebhookDelivery>> {
  return fetchPage(
    db,
    {
      keys: DELIVERY_KEYS,
      rows: (p) => sql<DeliveryRow>`
        SELECT d.delivery_id::text AS delivery_id, d.event_id, d.attempted_at, d.status_code, d.ok, d.error
          FROM webhook_deliveries d
         WHERE d.endpoint_id = ${endpointId} AND ${p.after()}
         ORDER BY ${p.order} ${p.window}`,
      count: sql`SELECT count(*)::int AS total FROM webhook_deliveries WHERE endpoint_id = ${endpointId}`,
      map: toDelivery,
    },
    request,
  );
}

/** The newest `limit` deliveries of an endpoint (the CLI's log). */
export async function listWebhookDeliveries(
  db: Db,
  endpointId: string,
  limit: number,
): Promise<WebhookDelivery[]> {
  return (await webhookDeliveriesPage(db, endpointId, { page: 1, limit })).data;
}

/** Moves the cursor past events the endpoint's filter skips (nothing to deliver, nothing to log). */
export async function advanceWebhookCursor(
  db: Db,
  endpointId: string,
  position: FeedPosition,
): Promise<void> {
  await db
    .updateTable('webhook_endpoints')
    .set({ cursor_version: position.version, cursor_event_index: position.eventIndex })
    .where('endpoint_id', '=', endpointId)
    .where(
      sql<boolean>`(cursor_version, cursor_event_index) < (${position.version}::bigint, ${position.eventIndex}::int)`,
    )
    .execute();
}
