import type { TokenActivityFact } from '../domain';
import { eventRef } from '../event-ref';
import { BURN_ADDRESSES } from '../framework-types';
import type { TxView } from '../transaction-view';
import type { WriteSetIndex } from '../write-set';
import type { V2Event } from './events';
import type { TokenSet } from './token-set';

/**
 * One activity per v2 token event. Mints go *to* the token's owner after the transaction; a
 * transfer to a burn address is reported as a burn (a soft burn leaves the object alive).
 */
export function decodeV2Activities(
  view: TxView,
  events: V2Event[],
  writeSet: WriteSetIndex,
  tokenSet: TokenSet,
): TokenActivityFact[] {
  const activities: TokenActivityFact[] = [];
  const ownerOf = (token: string): string | null => {
    const direct = writeSet.directOwner(token);
    return direct === null || BURN_ADDRESSES.has(direct) ? null : writeSet.resolveOwner(direct);
  };
  for (const v2 of events) {
    if (!tokenSet.tokens.has(v2.token)) continue;
    const base = {
      ...eventRef(view, v2.event.index),
      eventType: v2.event.type,
      tokenDataId: v2.token,
      tokenStandard: 'v2' as const,
      collectionId: tokenSet.collectionOf.get(v2.token) ?? null,
      propertyVersion: '0',
    };
    switch (v2.kind) {
      case 'mint':
        activities.push({
          ...base,
          kind: 'mint',
          fromAddress: null,
          toAddress: ownerOf(v2.token),
          amount: '1',
        });
        break;
      case 'burn':
        activities.push({
          ...base,
          kind: 'burn',
          fromAddress: v2.previousOwner ?? ownerOf(v2.token),
          toAddress: null,
          amount: '1',
        });
        break;
      case 'mutate':
        activities.push({
          ...base,
          kind: 'mutate',
          // The mutator, not the holder: mutations are made by the creator's contract in the sender's transaction.
          fromAddress: view.sender,
          toAddress: null,
          amount: '0',
          mutatedField: v2.field,
          beforeValue: v2.oldValue,
          afterValue: v2.newValue,
        });
        break;
      case 'transfer': {
        const softBurn = v2.to !== null && BURN_ADDRESSES.has(v2.to);
        activities.push({
          ...base,
          kind: softBurn ? 'burn' : 'transfer',
          fromAddress: v2.from,
          toAddress: v2.to,
          amount: '1',
        });
        break;
      }
    }
  }
  return activities;
}
