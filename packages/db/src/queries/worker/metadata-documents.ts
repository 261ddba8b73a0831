import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../database';
import type {
  DocumentAttribute,
  DocumentFile,
  DocumentReport,
  MetadataDocumentsTable,
} from '../../schema/index';

/** A token or collection whose document is to be fetched. */
export interface MetadataTarget {
  kind: MetadataDocumentsTable['kind'];
  subjectId: string;
  collectionId: string;
  uri: string | null;
  /** The subject's last_transaction_version now: the document is fetched for it. */
  subjectVersion: number;
  /** The stored document's hash and failure count, null when never fetched. */
  previousHash: string | null;
  previousAttempts: number;
  previousStatus: MetadataDocumentsTable['status'] | null;
}

/*
 * Due: never fetched, fetched for an older version of the subject (a mutation: new URI, properties,
 * name...), fetched from another URI, or past its refresh time (the schedule's age, a failure's
 * backoff, or a refresh request, which sets it to now). Burned tokens are left alone.
 */
function dueSql(now: Date) {
  return sql`(d.subject_id IS NULL OR d.subject_version < s.version OR d.uri IS DISTINCT FROM s.uri
              OR d.refresh_at <= ${now})`;
}
/**
 * The collection's own document (if due) and up to `limit` of its tokens' documents that are due.
 * A token's document is due only if the token is pending (metadata_pending: inserted or mutated since
 * a document for its version was stored) or its document's refresh time has come, so those are the
 * tokens read, not the collection's every token. Pending rows whose token has such a document by now
 * (an earlier batch's, a version gone back) are cleared first.
 */
export async function listMetadataDue(
  db: Db,
  collectionId: string,
  now: Date,
  limit: number,
): Promise<MetadataTarget[]> {
  await settlePending(db, sql`p.collection_id = ${collectionId}`);
  const { rows } = await sql<{
    kind: MetadataDocumentsTable['kind'];
    subject_id: string;
    uri: string | null;
    version: string;
    content_hash: string | null;
    attempts: number | null;
    status: MetadataDocumentsTable['status'] | null;
  }>`
    WITH subjects AS (
      (SELECT 'collection'::text AS kind, collection_id AS id, uri, last_transaction_version AS version
         FROM collections WHERE collection_id = ${collectionId})
      UNION ALL
      (SELECT 'token', token_data_id, token_uri, last_transaction_version
         FROM tokens
        WHERE token_data_id IN (
                SELECT token_data_id FROM metadata_pending WHERE collection_id = ${collectionId}
                UNION
                SELECT subject_id FROM metadata_documents
                 WHERE kind = 'token' AND collection_id = ${collectionId} AND refresh_at <= ${now})
          AND NOT is_burned)
    )
    SELECT s.kind, s.id AS subject_id, s.uri, s.version::text AS version, d.content_hash, d.attempts, d.status
      FROM subjects s
      LEFT JOIN metadata_documents d ON d.kind = s.kind AND d.subject_id = s.id
     WHERE ${dueSql(now)}
     ORDER BY s.kind, d.refresh_at NULLS FIRST, s.id
     LIMIT ${limit}`.execute(db);
  return rows.map((r) => ({
    kind: r.kind,
    subjectId: r.subject_id,
    collectionId,
    uri: r.uri,
    subjectVersion: Number(r.version),
    previousHash: r.content_hash,
    previousAttempts: r.attempts ?? 0,
    previousStatus: r.status,
  }));
}

/**
 * Collections with a document due, for the periodic sweep: a due refresh (indexed on refresh_at), a
 * pending token (never fetched or mutated since: metadata_pending), or a collection document never
 * fetched or changed since (an anti-join over collections, which are few). The collection-changed
 * path covers new mints within seconds.
 */
export async function listMetadataCollectionsDue(db: Db, now: Date, limit: number): Promise<string[]> {
  const { rows } = await sql<{ collection_id: string }>`
    SELECT collection_id FROM (
      SELECT collection_id FROM metadata_documents WHERE refresh_at <= ${now}
      UNION
      SELECT collection_id FROM metadata_pending
      UNION
      SELECT c.collection_id FROM collections c
       WHERE NOT EXISTS (
         SELECT 1 FROM metadata_documents d WHERE d.kind = 'collection' AND d.subject_id = c.collection_id
            AND d.subject_version >= c.last_transaction_version AND d.uri IS NOT DISTINCT FROM c.uri)
    ) due ORDER BY collection_id LIMIT ${limit}`.execute(db);
  return rows.map((r) => r.collection_id);
}

/** What one fetch produced: the parsed document, or the reason it failed. */
export interface MetadataOutcome {
  target: MetadataTarget;
  fetchedAt: Date;
  /** When the document is due again: the refresh age after success, the backoff after a failure. */
  refreshAt: Date;
  status: MetadataDocumentsTable['status'];
  error: string | null;
  contentHash: string | null;
  name: string | null;
  description: string | null;
  image: string | null;
  animationUrl: string | null;
  externalUrl: string | null;
  attributes: DocumentAttribute[] | null;
  files: DocumentFile[] | null;
  category: string | null;
  report: DocumentReport | null;
}

/**
 * Stores a batch of fetch outcomes in one transaction. A token document whose content changed
 * (or that failed after succeeding) replaces the token's document traits: its `source = 'document'`
 * rows are deleted and its attributes inserted where the on-chain property map names no such trait
 * (the chain wins: docs/DECISIONS.md). The trait-count triggers then mark the collection changed.
 * An unchanged document (same hash) only moves its times. Returns the collections whose traits changed.
 */
export async function saveMetadataOutcomes(
  db: Db,
  outcomes: readonly MetadataOutcome[],
): Promise<Set<string>> {
  const changedCollections = new Set<string>();
  if (outcomes.length === 0) return changedCollections;
  await db.transaction().execute(async (tx) => {
    for (const o of outcomes) {
      const t = o.target;
      const failed = o.status === 'error';
      // A failure keeps the last good document (its fields and traits): a host that is down for an
      // hour must not wipe a collection's traits. It records the error and backs off.
      const keep = failed && t.previousStatus === 'ok';
      const json = (v: unknown) => (v === null ? null : JSON.stringify(v));
      await sql`
        INSERT INTO metadata_documents AS d (kind, subject_id, collection_id, uri, subject_version, status, error,
          content_hash, name, description, image, animation_url, external_url, attributes, files, category,
          report, attempts, fetched_at, changed_at, refresh_at)
        VALUES (${t.kind}, ${t.subjectId}, ${t.collectionId}, ${t.uri}, ${t.subjectVersion}, ${o.status}, ${o.error},
          ${o.contentHash}, ${o.name}, ${o.description}, ${o.image}, ${o.animationUrl}, ${o.externalUrl},
          ${json(o.attributes)}::jsonb, ${json(o.files)}::jsonb, ${o.category}, ${json(o.report)}::jsonb,
          ${failed ? 1 : 0}, ${o.fetchedAt}, ${failed ? null : o.fetchedAt}, ${o.refreshAt})
        ON CONFLICT (kind, subject_id) DO UPDATE SET
          collection_id = excluded.collection_id, uri = excluded.uri, subject_version = excluded.subject_version,
          status = excluded.status, error = excluded.error,
          attempts = CASE WHEN excluded.status = 'ok' THEN 0 ELSE d.attempts + 1 END,
          fetched_at = excluded.fetched_at, refresh_at = excluded.refresh_at,
          content_hash = CASE WHEN ${keep} THEN d.content_hash ELSE excluded.content_hash END,
          name = CASE WHEN ${keep} THEN d.name ELSE excluded.name END,
          description = CASE WHEN ${keep} THEN d.description ELSE excluded.description END,
          image = CASE WHEN ${keep} THEN d.image ELSE excluded.image END,
          animation_url = CASE WHEN ${keep} THEN d.animation_url ELSE excluded.animation_url END,
          external_url = CASE WHEN ${keep} THEN d.external_url ELSE excluded.external_url END,
          attributes = CASE WHEN ${keep} THEN d.attributes ELSE excluded.attributes END,
          files = CASE WHEN ${keep} THEN d.files ELSE excluded.files END,
          category = CASE WHEN ${keep} THEN d.category ELSE excluded.category END,
          report = CASE WHEN ${keep} THEN d.report ELSE excluded.report END,
          changed_at = CASE WHEN excluded.content_hash IS DISTINCT FROM d.content_hash AND NOT ${keep}
                            THEN excluded.fetched_at ELSE d.changed_at END`.execute(tx);
      if (t.kind !== 'token' || keep || o.contentHash === t.previousHash) continue;
      if (await replaceDocumentTraits(tx, t.subjectId, t.collectionId, o.attributes ?? [])) {
        changedCollections.add(t.collectionId);
      }
    }
    const tokens = outcomes.filter((o) => o.target.kind === 'token').map((o) => o.target.subjectId);
    if (tokens.length > 0) await settlePending(tx, sql`p.token_data_id = ANY (${tokens}::text[])`);
  });
  return changedCollections;
}

/**
 * Deletes the pending rows (`where`, over `metadata_pending p`) whose token has a document stored for
 * the pending version or a later one. The row's version is compared, not the token's: a mutation
 * committed meanwhile raises it (and holds the row until it commits), so that token stays pending.
 */
async function settlePending(db: Db, where: RawBuilder<unknown>): Promise<void> {
  await sql`
    DELETE FROM metadata_pending p USING metadata_documents d
     WHERE ${where} AND d.kind = 'token' AND d.subject_id = p.token_data_id AND d.subject_version >= p.version`.execute(
    db,
  );
}

/** Replaces a token's document traits; true when a row changed. */
async function replaceDocumentTraits(
  db: Db,
  tokenId: string,
  collectionId: string,
  attributes: readonly DocumentAttribute[],
): Promise<boolean> {
  const deleted = await sql`
    DELETE FROM token_attributes a
     WHERE a.token_data_id = ${tokenId} AND a.source = 'document'
       AND NOT EXISTS (SELECT 1 FROM unnest(${attributes.map((a) => a.trait_type)}::text[],
                                            ${attributes.map((a) => a.value)}::text[]) n(trait_type, value)
                        WHERE n.trait_type = a.trait_type AND n.value = a.value)`.execute(db);
  const inserted = await sql`
    INSERT INTO token_attributes (token_data_id, trait_type, collection_id, value, source)
    SELECT ${tokenId}, n.trait_type, ${collectionId}, n.value, 'document'
      FROM unnest(${attributes.map((a) => a.trait_type)}::text[], ${attributes.map((a) => a.value)}::text[])
           n(trait_type, value)
    ON CONFLICT (token_data_id, trait_type) DO NOTHING`.execute(db);
  return Number(deleted.numAffectedRows ?? 0) + Number(inserted.numAffectedRows ?? 0) > 0;
}
