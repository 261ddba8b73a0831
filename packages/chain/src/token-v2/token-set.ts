import { BURN_ADDRESSES, T } from '../framework-types';
import { objectInner } from '../json';
import { addressOrNull } from '../token-v1/move-ids';
import type { WriteSetIndex } from '../write-set';
import type { V2Event } from './events';

/**
 * Which object addresses in this transaction are v2 tokens, and which of them stopped existing.
 * A token is an object with a `0x4::token::Token` resource (a transfer rewrites the whole object
 * group, so the Token resource shows up) or one named by a collection mint/burn event. Transfers
 * of other objects (listings, fungible stores) are not token activity.
 */
export interface TokenSet {
  tokens: Set<string>;
  burned: Set<string>;
  /** Collection of each token, from the Token resource or the mint/burn event. */
  collectionOf: Map<string, string>;
}

export function collectTokenSet(events: V2Event[], writeSet: WriteSetIndex): TokenSet {
  const tokens = new Set(writeSet.addressesWith(T.token));
  const burned = new Set<string>();
  const collectionOf = new Map<string, string>();
  for (const address of tokens) {
    const collection = addressOrNull(objectInner(writeSet.resource(address, T.token)?.['collection']));
    if (collection !== null) collectionOf.set(address, collection);
  }
  for (const event of events) {
    if (event.kind === 'mint' || event.kind === 'burn') {
      tokens.add(event.token);
      if (event.collection !== null && !collectionOf.has(event.token))
        collectionOf.set(event.token, event.collection);
      if (event.kind === 'burn') burned.add(event.token);
    }
  }
  for (const event of events) {
    if (
      event.kind === 'transfer' &&
      tokens.has(event.token) &&
      event.to !== null &&
      BURN_ADDRESSES.has(event.to)
    ) {
      burned.add(event.token);
    }
  }
  for (const token of tokens) if (writeSet.isObjectDeleted(token)) burned.add(token);
  return { tokens, burned, collectionOf };
}
