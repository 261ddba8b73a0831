import { isAddress, normalizeAddress } from './address';
import { DecodeError } from './decode-error';
import { asArray, asRecord, asString, asUintString, isRecord, type JsonRecord } from './json';
import { parseStructType, type StructType } from './move-type';

/**
 * The parts of a REST transaction the decoders read, validated once and with addresses in long
 * form. Decoders work on this view, never on the raw JSON, so the envelope is checked in one place.
 */
export interface TxEvent {
  index: number;
  /** The type string exactly as the chain gave it. */
  type: string;
  struct: StructType | null;
  data: JsonRecord;
  /** Long-form `guid.account_address` (0x0…0 for module events). */
  account: string;
  creationNumber: string;
  sequenceNumber: string;
  /** `#[event]` module events carry the dummy guid (0x0, creation number 0). */
  isModuleEvent: boolean;
}

export interface ResourceWrite {
  changeIndex: number;
  address: string;
  type: string;
  struct: StructType | null;
  data: JsonRecord;
}

interface ResourceDelete {
  changeIndex: number;
  address: string;
  type: string;
  struct: StructType | null;
}

export interface TableItemChange {
  changeIndex: number;
  deleted: boolean;
  handle: string;
  keyType: string;
  key: unknown;
  /** Absent for deletions, and when the node could not decode the value (`data: null`). */
  valueType: string | null;
  value: unknown;
}

export interface TxView {
  version: number;
  versionText: string;
  timestampUs: string;
  success: boolean;
  isUser: boolean;
  sender: string | null;
  /** `0x1::module::function` of an entry-function payload, else null. */
  entryFunction: string | null;
  events: TxEvent[];
  resourceWrites: ResourceWrite[];
  resourceDeletes: ResourceDelete[];
  tableItems: TableItemChange[];
}

const ZERO = normalizeAddress('0x0');

export function readTransaction(tx: unknown): TxView {
  if (!isRecord(tx)) throw new DecodeError('transaction is not a JSON object');
  const type = asString(tx['type']);
  if (type === null) throw new DecodeError('transaction has no type');
  const versionText = asUintString(tx['version']);
  if (type === 'pending_transaction') throw new DecodeError('pending transactions have no version to index');
  if (versionText === null) throw new DecodeError('transaction has no numeric version');
  const fail = (reason: string): never => {
    throw new DecodeError(reason, versionText);
  };
  const version = Number(versionText);
  if (!Number.isSafeInteger(version)) fail('version is beyond 2^53');
  // The fullnode prints genesis without a timestamp: it happened at the epoch.
  const timestampUs =
    asUintString(tx['timestamp']) ??
    (type === 'genesis_transaction' && tx['timestamp'] === undefined ? '0' : null) ??
    fail('transaction has no numeric timestamp');
  const success = tx['success'];
  if (typeof success !== 'boolean') fail('transaction has no boolean success flag');
  const isUser = type === 'user_transaction';
  const base: TxView = {
    version,
    versionText,
    timestampUs,
    success: success === true,
    isUser,
    sender: null,
    entryFunction: null,
    events: [],
    resourceWrites: [],
    resourceDeletes: [],
    tableItems: [],
  };
  if (!isUser) {
    // System and unknown types go through the same readers: none carries NFT state today, but
    // if one ever does, its events and writes reach the decoders instead of being dropped. Some
    // types have no events field at all (state checkpoint, block epilogue).
    const events =
      tx['events'] === undefined ? [] : (asArray(tx['events']) ?? fail('events is not an array'));
    const changes =
      tx['changes'] === undefined ? [] : (asArray(tx['changes']) ?? fail('changes is not an array'));
    const sender = asString(tx['sender']);
    return {
      ...base,
      sender: sender !== null && isAddress(sender) ? normalizeAddress(sender) : null,
      events: events.map((event, index) => readEvent(event, index, fail)),
      ...readChanges(changes, fail),
    };
  }

  const sender = asString(tx['sender']);
  if (sender === null || !isAddress(sender)) fail('user transaction has no sender address');
  const events = asArray(tx['events']) ?? fail('events is not an array');
  const changes = asArray(tx['changes']) ?? fail('changes is not an array');
  const payload = asRecord(tx['payload']);
  return {
    ...base,
    sender: normalizeAddress(sender as string),
    entryFunction: payload ? asString(payload['function']) : null,
    events: events.map((event, index) => readEvent(event, index, fail)),
    ...readChanges(changes, fail),
  };
}

function readEvent(event: unknown, index: number, fail: (reason: string) => never): TxEvent {
  if (!isRecord(event)) fail(`event ${index} is not an object`);
  const record = event as JsonRecord;
  const type = asString(record['type']) ?? fail(`event ${index} has no type`);
  const data = record['data'];
  // Events such as `0x1::transaction_fee::FeeStatement` always carry an object; a non-object is malformed.
  if (!isRecord(data)) fail(`event ${index} (${type}) has no data object`);
  const guid = asRecord(record['guid']);
  const accountRaw = guid ? asString(guid['account_address']) : null;
  if (accountRaw === null || !isAddress(accountRaw)) fail(`event ${index} (${type}) has no guid account`);
  const account = normalizeAddress(accountRaw as string);
  const creationNumber = (guid ? asUintString(guid['creation_number']) : null) ?? '0';
  const sequenceNumber = asUintString(record['sequence_number']) ?? '0';
  return {
    index,
    type,
    struct: parseStructType(type),
    data: data as JsonRecord,
    account,
    creationNumber,
    sequenceNumber,
    isModuleEvent: account === ZERO && creationNumber === '0',
  };
}

function readChanges(
  changes: unknown[],
  fail: (reason: string) => never,
): Pick<TxView, 'resourceWrites' | 'resourceDeletes' | 'tableItems'> {
  const resourceWrites: ResourceWrite[] = [];
  const resourceDeletes: ResourceDelete[] = [];
  const tableItems: TableItemChange[] = [];
  changes.forEach((change, changeIndex) => {
    if (!isRecord(change)) fail(`change ${changeIndex} is not an object`);
    const record = change as JsonRecord;
    const kind = asString(record['type']) ?? fail(`change ${changeIndex} has no type`);
    switch (kind) {
      case 'write_resource': {
        const address = readAddress(record['address'], `change ${changeIndex}`, fail);
        const data = asRecord(record['data']) ?? fail(`change ${changeIndex} has no resource data`);
        const type = asString(data['type']) ?? fail(`change ${changeIndex} has no resource type`);
        const value = asRecord(data['data']) ?? fail(`change ${changeIndex} (${type}) has no resource value`);
        resourceWrites.push({ changeIndex, address, type, struct: parseStructType(type), data: value });
        return;
      }
      case 'delete_resource': {
        const address = readAddress(record['address'], `change ${changeIndex}`, fail);
        const type = asString(record['resource']) ?? fail(`change ${changeIndex} has no resource type`);
        resourceDeletes.push({ changeIndex, address, type, struct: parseStructType(type) });
        return;
      }
      case 'write_table_item':
      case 'delete_table_item': {
        const handle = readAddress(record['handle'], `change ${changeIndex}`, fail);
        const data = asRecord(record['data']);
        // REST leaves `data` null when the node cannot decode the item; nothing NFT-related to read then.
        if (data === null) return;
        tableItems.push({
          changeIndex,
          deleted: kind === 'delete_table_item',
          handle,
          keyType: asString(data['key_type']) ?? '',
          key: data['key'],
          valueType: asString(data['value_type']),
          value: data['value'],
        });
        return;
      }
      default:
        // write_module / delete_module and future kinds carry nothing the NFT model needs.
        return;
    }
  });
  return { resourceWrites, resourceDeletes, tableItems };
}

function readAddress(value: unknown, where: string, fail: (reason: string) => never): string {
  const text = asString(value);
  if (text === null || !isAddress(text)) fail(`${where} has no valid address`);
  return normalizeAddress(text as string);
}
