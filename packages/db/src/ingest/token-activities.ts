import type { Db } from '../database';
import { unnestInsert } from './bulk';
import type { IngestBatch } from './types';

export async function writeTokenActivities(db: Db, batch: IngestBatch): Promise<number> {
  return unnestInsert(
    db,
    'token_activities',
    {
      transaction_version: 'bigint',
      event_index: 'integer',
      kind: 'text',
      event_type: 'text',
      token_data_id: 'text',
      token_standard: 'text',
      collection_id: 'text',
      property_version: 'numeric',
      from_address: 'text',
      to_address: 'text',
      amount: 'numeric',
      transaction_timestamp: 'timestamptz',
    },
    batch.tokenActivities,
    'ON CONFLICT (transaction_version, event_index) DO NOTHING',
  );
}
