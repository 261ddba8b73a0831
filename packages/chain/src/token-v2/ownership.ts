import type { OwnershipFact } from '../domain';
import { BURN_ADDRESSES } from '../framework-types';
import type { TxView } from '../transaction-view';
import type { WriteSetIndex } from '../write-set';
import type { V2Event } from './events';
import type { TokenSet } from './token-set';

/**
 * Absolute v2 ownership after the transaction. A v2 token has exactly one owner: the holder gets
 * amount 1 (0 when the token was burned but its object survives), and every other account the
 * transaction moved it through gets amount 0, so replays overwrite rather than add.
 */
export function decodeV2Ownerships(
  view: TxView,
  events: V2Event[],
  writeSet: WriteSetIndex,
  tokenSet: TokenSet,
): OwnershipFact[] {
  const facts: OwnershipFact[] = [];
  for (const token of tokenSet.tokens) {
    const burned = tokenSet.burned.has(token);
    const direct = writeSet.directOwner(token);
    const isSoulbound = writeSet.isSoulbound(token);
    const fact = (owner: string, amount: string, directOwner: string | null): OwnershipFact => ({
      tokenDataId: token,
      tokenStandard: 'v2',
      propertyVersion: '0',
      collectionId: tokenSet.collectionOf.get(token) ?? null,
      owner,
      tableHandle: null,
      amount,
      isSoulbound,
      version: view.version,
      directOwner,
    });
    let holder: string | null = null;
    if (direct !== null && !BURN_ADDRESSES.has(direct)) {
      holder = writeSet.resolveOwner(direct);
      facts.push(fact(holder, burned ? '0' : '1', direct));
    }
    const previous = new Set<string>();
    for (const event of events) {
      if (event.token !== token) continue;
      if (event.kind === 'transfer') {
        if (event.from !== null) previous.add(event.from);
        if (event.to !== null) previous.add(event.to);
      } else if (event.kind === 'burn' && event.previousOwner !== null) {
        previous.add(event.previousOwner);
      }
    }
    const emitted = new Set(holder === null ? [] : [holder]);
    for (const address of previous) {
      // Escrow / listing objects deleted in this transaction are not holders worth a row.
      if (BURN_ADDRESSES.has(address) || writeSet.isObjectDeleted(address)) continue;
      const owner = writeSet.directOwner(address) === null ? address : writeSet.resolveOwner(address);
      if (emitted.has(owner)) continue;
      emitted.add(owner);
      facts.push(fact(owner, '0', address === owner ? null : address));
    }
  }
  return facts;
}
