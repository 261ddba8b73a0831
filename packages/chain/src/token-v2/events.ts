import { DecodeError } from '../decode-error';
import { T } from '../framework-types';
import { asString } from '../json';
import { addressOrNull } from '../token-v1/move-ids';
import type { TxEvent, TxView } from '../transaction-view';

/**
 * The v2 token events of one transaction in one shape, whichever form (legacy handle event on the
 * object, or module event after the migration) the chain emitted.
 */
export type V2Event =
  | { kind: 'mint'; event: TxEvent; token: string; collection: string | null }
  | { kind: 'burn'; event: TxEvent; token: string; collection: string | null; previousOwner: string | null }
  | {
      kind: 'mutate';
      event: TxEvent;
      token: string;
      field: string | null;
      oldValue: string | null;
      newValue: string | null;
    }
  | { kind: 'transfer'; event: TxEvent; token: string; from: string | null; to: string | null };

export function readV2Events(view: TxView): V2Event[] {
  const events: V2Event[] = [];
  for (const event of view.events) {
    const parsed = readV2Event(view, event);
    if (parsed) events.push(parsed);
  }
  return events;
}

function readV2Event(view: TxView, event: TxEvent): V2Event | null {
  const key = event.struct?.key;
  const data = event.data;
  const token = (fieldName: string): string => {
    const address = addressOrNull(data[fieldName]);
    if (address === null) {
      throw new DecodeError(
        `event ${event.index} (${event.type}) has no ${fieldName} address`,
        view.versionText,
      );
    }
    return address;
  };
  // Handle events live on the collection (mint/burn) or token (mutation) object: the guid names it.
  const handleOwner = event.isModuleEvent ? null : event.account;
  switch (key) {
    case T.v2MintEvent:
      return { kind: 'mint', event, token: token('token'), collection: handleOwner };
    case T.v2Mint:
      return { kind: 'mint', event, token: token('token'), collection: addressOrNull(data['collection']) };
    case T.v2ConcurrentMintEvent:
      return {
        kind: 'mint',
        event,
        token: token('token'),
        collection: addressOrNull(data['collection_addr']),
      };
    case T.v2BurnEvent:
      return { kind: 'burn', event, token: token('token'), collection: handleOwner, previousOwner: null };
    case T.v2Burn:
      return {
        kind: 'burn',
        event,
        token: token('token'),
        collection: addressOrNull(data['collection']),
        previousOwner: addressOrNull(data['previous_owner']),
      };
    case T.v2ConcurrentBurnEvent:
      return {
        kind: 'burn',
        event,
        token: token('token'),
        collection: addressOrNull(data['collection_addr']),
        previousOwner: null,
      };
    case T.v2TokenMutationEvent:
    case T.v2TokenMutation: {
      const target = key === T.v2TokenMutation ? token('token_address') : handleOwner;
      if (target === null) return null;
      return {
        kind: 'mutate',
        event,
        token: target,
        field: asString(data['mutated_field_name']),
        oldValue: asString(data['old_value']),
        newValue: asString(data['new_value']),
      };
    }
    case T.objectTransferEvent:
    case T.objectTransfer:
      return {
        kind: 'transfer',
        event,
        token: token('object'),
        from: addressOrNull(data['from']),
        to: addressOrNull(data['to']),
      };
    default:
      return null;
  }
}
