import type { OwnershipRow } from '../types';

/*
 * A v2 token has one holder at a time. A transaction shows the new holder, and the previous one
 * only when an event names it. Within a batch, a holder that the batch itself later replaces gets
 * an explicit amount-0 row at the version that replaced it; holders stored before the batch are
 * released by the ownership writer at the batch's first new holder. Either way a former holder's
 * row says when it stopped holding, however the range was cut into batches.
 */

/** The batch's ownership rows (chain order) with an amount-0 row for each v2 holder replaced in it. */
export function releaseReplacedHolders(rows: readonly OwnershipRow[]): OwnershipRow[] {
  const holders = new Map<string, OwnershipRow>();
  const out: OwnershipRow[] = [];
  for (const row of rows) {
    if (row.token_standard === 'v2' && row.amount !== '0' && row.owner_address !== null) {
      const previous = holders.get(row.token_data_id);
      if (
        previous &&
        previous.owner_address !== row.owner_address &&
        previous.last_transaction_version < row.last_transaction_version
      ) {
        out.push({ ...previous, amount: '0', last_transaction_version: row.last_transaction_version });
      }
      holders.set(row.token_data_id, row);
    }
    out.push(row);
  }
  return out;
}
