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

/** One query on a short-lived connection. */
export async function queryRows(
  url: string,
  text: string,
  params: unknown[] = [],
): Promise<Record<string, unknown>[]> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  await client.connect();
  try {
    return (await client.query(text, params)).rows;
  } finally {
    await client.end();
  }
}
