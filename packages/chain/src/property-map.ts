import { BcsReader } from './bcs-reader';
import { asArray, asRecord, asString, field } from './json';

/**
 * Property maps decoded to display strings, as the official indexer renders them: numbers in
 * decimal, bools as `true`/`false`, strings as text, addresses in long form, byte vectors as hex.
 * A value that does not decode as its declared type keeps its raw hex, so nothing is dropped.
 */

/** v1 (0x3::property_map) declares each value's type as a Move type string. */
export function decodeV1PropertyValue(type: string, hex: string): string {
  try {
    const reader = BcsReader.fromHex(hex);
    const value = readByV1Type(reader, type);
    return value !== null && reader.done ? value : hex;
  } catch {
    return hex;
  }
}

function readByV1Type(reader: BcsReader, type: string): string | null {
  switch (type) {
    case 'bool':
      return String(reader.bool());
    case 'u8':
      return reader.uint(1);
    case 'u16':
      return reader.uint(2);
    case 'u32':
      return reader.uint(4);
    case 'u64':
      return reader.uint(8);
    case 'u128':
      return reader.uint(16);
    case 'u256':
      return reader.uint(32);
    case 'address':
      return reader.address();
    case '0x1::string::String':
    case 'String':
      return reader.string();
    case 'vector<u8>':
      return `0x${Buffer.from(reader.byteVector()).toString('hex')}`;
    default:
      return null;
  }
}

/** v2 (0x4::property_map) stores a u8 type code per value (README §5.3). */
const V2_TYPE_CODES: Record<number, string> = {
  0: 'bool',
  1: 'u8',
  2: 'u16',
  3: 'u32',
  4: 'u64',
  5: 'u128',
  6: 'u256',
  7: 'address',
  8: 'vector<u8>',
  9: '0x1::string::String',
};

export function decodeV2PropertyValue(code: number, hex: string): string {
  const type = V2_TYPE_CODES[code];
  return type === undefined ? hex : decodeV1PropertyValue(type, hex);
}

/** Parallel arrays of v1 events (`property_keys/values/types`, mutate `keys/values/types`). */
export function decodeV1PropertyArrays(
  keys: unknown,
  values: unknown,
  types: unknown,
): Record<string, string> {
  const result: Record<string, string> = {};
  const keyList = asArray(keys) ?? [];
  const valueList = asArray(values) ?? [];
  const typeList = asArray(types) ?? [];
  keyList.forEach((key, i) => {
    const name = asString(key);
    const hex = asString(valueList[i]);
    const type = asString(typeList[i]);
    if (name !== null && hex !== null && type !== null) result[name] = decodeV1PropertyValue(type, hex);
  });
  return result;
}

/** v1 `PropertyMap { map: SimpleMap { data: [{key, value: {type, value}}] } }`. */
export function decodeV1PropertyMap(map: unknown): Record<string, string> {
  const result: Record<string, string> = {};
  for (const entry of asArray(field(field(map, 'map'), 'data')) ?? []) {
    const key = asString(field(entry, 'key'));
    const value = asRecord(field(entry, 'value'));
    const type = asString(value?.['type']);
    const hex = asString(value?.['value']);
    if (key !== null && type !== null && hex !== null) result[key] = decodeV1PropertyValue(type, hex);
  }
  return result;
}

/** v2 `PropertyMap { inner: SimpleMap { data: [{key, value: {type: u8, value}}] } }`. */
export function decodeV2PropertyMap(resource: unknown): Record<string, string> {
  const result: Record<string, string> = {};
  for (const entry of asArray(field(field(resource, 'inner'), 'data')) ?? []) {
    const key = asString(field(entry, 'key'));
    const value = asRecord(field(entry, 'value'));
    const rawCode = value?.['type'];
    const code = typeof rawCode === 'number' ? rawCode : Number(asString(rawCode));
    const hex = asString(value?.['value']);
    if (key !== null && Number.isInteger(code) && hex !== null)
      result[key] = decodeV2PropertyValue(code, hex);
  }
  return result;
}
