import type { TokenActivityFact } from '../domain';
import { T } from '../framework-types';
import { structKey } from '../move-type';
import type { TxView } from '../transaction-view';
import { parseTokenDataId } from './move-ids';

/**
 * Which v1 token data a transaction burned. A v1 burn (`0x3::token::BurnTokenEvent`, its module
 * twins `0x3::token::Burn` and the deprecated `0x3::token::BurnToken`) removes `amount` copies
 * from one owner; whether the token itself is gone depends on what is left:
 * - `gone`: the transaction deleted the TokenData table item. `token::burn` does that when a
 *   supply-tracked token (maximum > 0) drops to supply 0, so no copy exists anywhere.
 * - `unlessHeld`: the TokenData stayed (an untracked supply, maximum 0, keeps it; so does a
 *   partial burn of a fungible token). Only stored balances can tell: the indexer marks the token
 *   burned when no positive balance of it remains.
 */
export interface V1Burns {
  gone: string[];
  unlessHeld: string[];
}

export function decodeV1Burns(view: TxView, activities: readonly TokenActivityFact[]): V1Burns {
  const named = new Set(
    activities.filter((a) => a.kind === 'burn' && a.tokenStandard === 'v1').map((a) => a.tokenDataId),
  );
  if (named.size === 0) return { gone: [], unlessHeld: [] };
  const deleted = new Set<string>();
  for (const item of view.tableItems) {
    if (!item.deleted || structKey(item.keyType) !== T.v1TokenDataId) continue;
    const id = parseTokenDataId(item.key);
    if (id !== null) deleted.add(id.tokenDataId);
  }
  const gone = [...named].filter((id) => deleted.has(id));
  return { gone, unlessHeld: [...named].filter((id) => !deleted.has(id)) };
}
