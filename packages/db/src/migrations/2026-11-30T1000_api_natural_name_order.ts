import { type Kysely, sql } from 'kysely';

/*
 * A collection's tokens in natural name order ("#2" before "#10"), as a collection page shows them
 * (issue #34). ICU's numeric collation (`kn`: digit runs compare by value) does it in Postgres, so
 * the order, the index and the keyset cursor all use one comparison; both supported servers have
 * ICU (PostgreSQL 15 from Debian, the embedded PostgreSQL 18 with its own libicu). Deterministic
 * (the default): names that collate equal still compare by their bytes, so equality is unchanged.
 * The index leads with the collection and carries is_burned, as tokens_collection_name does for
 * the page's total; that index stays for the name lookups (equality in the default collation).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE COLLATION IF NOT EXISTS mdq_natural (provider = icu, locale = 'und-u-kn-true')`.execute(
    db,
  );
  await sql`CREATE INDEX IF NOT EXISTS tokens_collection_natural_name
              ON tokens (collection_id, token_name COLLATE mdq_natural, token_data_id) INCLUDE (is_burned)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX IF EXISTS tokens_collection_natural_name`.execute(db);
  await sql`DROP COLLATION IF EXISTS mdq_natural`.execute(db);
}
