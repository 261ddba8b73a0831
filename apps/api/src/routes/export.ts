import { pipeline, type Readable } from 'node:stream';
import { createGzip } from 'node:zlib';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Address, ERRORS, Name } from '@mdq/contracts';
import {
  addExportRows,
  EXPORT_DATASET_NAMES,
  type ExportFormat,
  exportRowsUsed,
  openExport,
} from '@mdq/db/export';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { collectionIdsOf, knownCollectionId } from '../lib/resolve';
import { ApiError } from '../plugins/errors';
import type { RouteDeps } from './deps';

const version = (description: string) =>
  Type.Optional(Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER, description }));

const ExportParams = Type.Object({
  dataset: Type.Union(
    EXPORT_DATASET_NAMES.map((name) => Type.Literal(name)),
    { description: 'what to export' },
  ),
});

const ExportQuery = Type.Object({
  format: Type.Union([Type.Literal('ndjson'), Type.Literal('csv')], {
    default: 'ndjson',
    description: 'ndjson (one JSON object per line) or csv (header row of camelCase field names)',
  }),
  collectionId: Type.Optional(Address('collection id (or creator + collection)')),
  creator: Type.Optional(Address('creator address of the collection (with collection)')),
  collection: Type.Optional(Name('collection name (with creator)')),
  wallet: Type.Optional(
    Address('rows of this wallet (seller / buyer / sender / receiver / owner / creator)'),
  ),
  fromVersion: version('first chain version, inclusive'),
  toVersion: version('last chain version, inclusive'),
  after: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 1024,
      description: "resume: the trailer's `next`, or the cursor of the last row received",
    }),
  ),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 1_000_000_000, description: 'at most this many rows' }),
  ),
});

const CONTENT_TYPES: Record<ExportFormat, string> = {
  ndjson: 'application/x-ndjson; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
};

/**
 * zlib settings of a gzipped export. Level 1 rather than zlib's default 6: on the bench's NDJSON it
 * spends half of level 6's CPU per MB (zlib runs on a pool thread beside Postgres and the event
 * loop, on the same cores) for 16.7× smaller output against 24.9×, and was the faster in every
 * run (docs/PERFORMANCE.md "Bulk export"). 64 KiB chunks: fewer round trips to the pool per MB
 * (no consistent difference from 16 KiB was measured).
 */
const GZIP = { level: 1, chunkSize: 64 * 1024 };

/** `Accept-Encoding` names gzip (or `*`) without `q=0`. */
function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  return header.split(',').some((part) => {
    const [coding, ...params] = part.trim().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    return (coding === 'gzip' || coding === '*') && (q === undefined || Number(q.slice(2)) > 0);
  });
}

/**
 * Bulk export: a dataset streamed from one Postgres snapshot with COPY, straight to the socket
 * (gzip in between when the client accepts it). The last line says whether the export is complete
 * and, when a limit or the key's daily quota cut it, the `after` to continue with.
 */
export async function exportRoutes(scope: FastifyInstance, deps: RouteDeps): Promise<void> {
  const app = scope.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/export/:dataset',
    {
      schema: {
        tags: ['export'],
        summary: 'Bulk export of a dataset as NDJSON or CSV (streamed, resumable, one snapshot)',
        params: ExportParams,
        querystring: ExportQuery,
        response: {
          200: {
            description:
              'one row per line (NDJSON: a JSON object; CSV: a header line, then records), then the trailer line ' +
              '{"$export":{"rows","complete","next"}} (CSV: the same JSON after a #); gzipped when Accept-Encoding ' +
              'allows it',
            content: {
              'application/x-ndjson': { schema: Type.String() },
              'text/csv': { schema: Type.String() },
            },
          },
          ...ERRORS,
        },
      },
    },
    async (request, reply) => {
      const { dataset } = request.params;
      const query = request.query;
      if (
        query.fromVersion !== undefined &&
        query.toVersion !== undefined &&
        query.fromVersion > query.toVersion
      ) {
        throw new ApiError(400, 'INVALID_PARAMETER', "'fromVersion' is after 'toVersion'");
      }
      if ((query.creator === undefined) !== (query.collection === undefined)) {
        throw new ApiError(400, 'MISSING_PARAMETER', "'creator' and 'collection' go together");
      }
      if (query.collectionId !== undefined && query.creator !== undefined) {
        throw new ApiError(
          400,
          'INVALID_PARAMETER',
          "give 'collectionId' or 'creator' + 'collection', not both",
        );
      }
      const collectionIds =
        query.collectionId !== undefined
          ? [await knownCollectionId(deps.readDb, query.collectionId)]
          : query.creator !== undefined && query.collection !== undefined
            ? await collectionIdsOf(deps.readDb, query.creator, query.collection)
            : undefined;

      // Checked at the start and charged with the rows actually written: parallel exports of one
      // key can each take what was left when they started, so the overshoot is bounded by them.
      const keyId = request.apiKeyId ?? request.ip;
      const perDay = deps.exportRowsPerDay;
      const remaining = perDay - (await exportRowsUsed(deps.db, keyId));
      if (remaining <= 0) {
        const midnight = new Date();
        midnight.setUTCHours(24, 0, 0, 0);
        reply.header('retry-after', Math.ceil((midnight.getTime() - Date.now()) / 1000));
        throw new ApiError(
          429,
          'EXPORT_QUOTA_EXCEEDED',
          `export quota of ${perDay} rows per day for this key is spent; it resets at ${midnight.toISOString()}`,
        );
      }
      const limit = Math.min(query.limit ?? remaining, remaining);
      const opened = await openExport(deps.readDb, {
        dataset,
        format: query.format,
        limit,
        collectionIds,
        wallet: query.wallet,
        fromVersion: query.fromVersion,
        toVersion: query.toVersion,
        after: query.after,
        onFinish: (rows) =>
          addExportRows(deps.db, keyId, rows).catch((err: unknown) =>
            request.log.warn({ err }, 'export rows not counted'),
          ),
      });

      reply
        .header('content-type', CONTENT_TYPES[query.format])
        .header('content-disposition', `attachment; filename="${dataset}.${query.format}"`)
        .header('x-export-row-limit', String(limit))
        .header('vary', 'accept-encoding');
      // The response schemas type the error bodies; the 200 body is a byte stream.
      const send = (stream: Readable) => (reply as unknown as FastifyReply).send(stream);
      if (!acceptsGzip(request.headers['accept-encoding'])) return send(opened.stream);
      reply.header('content-encoding', 'gzip');
      // pipeline: a client that goes away destroys gzip, which destroys the COPY stream and
      // closes its connection.
      const gzip = createGzip({ ...GZIP, ...deps.exportGzip });
      pipeline(opened.stream, gzip, () => {});
      return send(gzip);
    },
  );
}
