import { sql } from 'kysely';
import type { Db } from '../database';
import { lastByKey } from './bulk';
import type { IngestBatch } from './types';

export async function writeBurns(db: Db, batch: IngestBatch): Promise<number> {
  const burns = lastByKey(batch.burnedTokens, (r) => r.token_data_id);
  if (burns.length === 0) return 0;
  const tokens = burns.map((b) => b.token_data_id);
  const versions = burns.map((b) => b.last_transaction_version);
  const marked = await sql`
    UPDATE tokens t SET is_burned = true, last_transaction_version = GREATEST(t.last_transaction_version, n.version)
    FROM unnest(${tokens}::text[], ${versions}::bigint[]) AS n(token, version)
    WHERE t.token_data_id = n.token AND t.last_transaction_version <= n.version AND t.token_data_id = ANY(${tokens}::text[])
  `.execute(db);
  const owners = await sql`
    UPDATE token_ownerships o SET amount = 0, last_transaction_version = n.version
    FROM unnest(${tokens}::text[], ${versions}::bigint[]) AS n(token, version)
    WHERE o.token_data_id = n.token AND o.token_standard = 'v2' AND o.amount > 0 AND o.last_transaction_version <= n.version
      AND o.token_data_id = ANY(${tokens}::text[])
  `.execute(db);
  // A burned token can no longer be bought: its listings stop counting toward floors.
  const listings = await sql`
    UPDATE listings l SET status = 'cancelled', closed_at = NULL, last_transaction_version = n.version
    FROM unnest(${tokens}::text[], ${versions}::bigint[]) AS n(token, version)
    WHERE l.token_data_id = n.token AND l.status = 'active' AND l.last_transaction_version <= n.version
      AND l.token_data_id = ANY(${tokens}::text[])
  `.execute(db);
  return [marked, owners, listings].reduce((sum, r) => sum + Number(r.numAffectedRows ?? 0), 0);
}
