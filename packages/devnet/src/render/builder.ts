import { hash32 } from '../util/hex';
import type { MoveJson, RestChange, RestEvent } from './rest-types';

const MODULE_GUID = { creation_number: '0', account_address: '0x0' } as const;

const typeHashes = new Map<string, number>();

function fnv(text: string, from: number, to: number): number {
  let h = 0x811c9dc5;
  for (let i = from; i < to; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

/**
 * Same (address, resource) => same state key hash, like the chain. Addresses here are random hex,
 * so their first and last digits are enough to tell them apart; resource types are few and cached.
 */
function stateKeyHash(address: string, type: string): string {
  let t = typeHashes.get(type);
  if (t === undefined) {
    t = fnv(type, 0, type.length);
    typeHashes.set(type, t);
  }
  return hash32(
    fnv(address, 0, Math.min(20, address.length)),
    t,
    fnv(address, Math.max(0, address.length - 12), address.length),
  );
}

/** Collects one transaction's events and write-set changes in order. */
export class TxBuilder {
  readonly events: RestEvent[] = [];
  readonly changes: RestChange[] = [];

  handleEvent(account: string, creationNumber: string, sequence: number, type: string, data: MoveJson): void {
    this.events.push({
      guid: { creation_number: creationNumber, account_address: account },
      sequence_number: String(sequence),
      type,
      data,
    });
  }

  moduleEvent(type: string, data: MoveJson): void {
    this.events.push({ guid: { ...MODULE_GUID }, sequence_number: '0', type, data });
  }

  writeResource(address: string, type: string, data: MoveJson): void {
    this.changes.push({
      type: 'write_resource',
      address,
      state_key_hash: stateKeyHash(address, type),
      data: { type, data },
    });
  }

  deleteResource(address: string, type: string): void {
    this.changes.push({
      type: 'delete_resource',
      address,
      state_key_hash: stateKeyHash(address, type),
      resource: type,
    });
  }

  writeTableItem(
    handle: string,
    keyHex: string,
    key: MoveJson,
    keyType: string,
    valueHex: string,
    value: MoveJson,
    valueType: string,
  ): void {
    this.changes.push({
      type: 'write_table_item',
      state_key_hash: stateKeyHash(handle, keyHex),
      handle,
      key: `0x${keyHex}`,
      value: `0x${valueHex}`,
      data: { key, key_type: keyType, value, value_type: valueType },
    });
  }

  deleteTableItem(handle: string, keyHex: string, key: MoveJson, keyType: string): void {
    this.changes.push({
      type: 'delete_table_item',
      state_key_hash: stateKeyHash(handle, keyHex),
      handle,
      key: `0x${keyHex}`,
      data: { key, key_type: keyType },
    });
  }
}
