import pg from 'pg';

/** The main follower's checkpoint, read on a short-lived connection (null while unreadable). */
export async function mainCheckpoint(url: string): Promise<number | null> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3_000 });
  client.on('error', () => {});
  try {
    await client.connect();
    const { rows } = await client.query<{ v: string }>(
      "SELECT last_version::text AS v FROM indexer_checkpoints WHERE name = 'main'",
    );
    return rows[0] ? Number(rows[0].v) : null;
  } catch {
    return null;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** One count query on a short-lived connection. */
export async function countRows(url: string, query: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(query);
    return Number(rows[0]?.n ?? 0);
  } finally {
    await client.end();
  }
}
