import { describe, expect, it } from 'vitest';
import {
  decodeV1PropertyMap,
  decodeV1PropertyValue,
  decodeV2PropertyMap,
  decodeV2PropertyValue,
} from '../src/index';

describe('v1 property values (BCS hex, Move type strings)', () => {
  it.each([
    ['bool', '0x01', 'true'],
    ['bool', '0x00', 'false'],
    ['u8', '0xff', '255'],
    ['u16', '0x3412', '4660'],
    ['u32', '0x78563412', '305419896'],
    ['u64', '0x0100000000000000', '1'],
    ['u64', '0x5f1aae6400000000', '1689131615'],
    ['u64', '0xffffffffffffffff', '18446744073709551615'],
    ['u128', `0x${'ff'.repeat(16)}`, '340282366920938463463374607431768211455'],
    ['u256', `0x01${'00'.repeat(31)}`, '1'],
    ['0x1::string::String', '0x0441757261', 'Aura'],
    ['0x1::string::String', '0x00', ''],
    ['0x1::string::String', '0x04f09f8c90', '🌐'],
    ['vector<u8>', '0x020a0b', '0x0a0b'],
    ['address', `0x${'00'.repeat(31)}01`, `0x${'0'.repeat(63)}1`],
  ])('%s %s → %s', (type, hex, expected) => {
    expect(decodeV1PropertyValue(type, hex)).toBe(expected);
  });

  it('keeps the raw hex when bytes do not match the declared type', () => {
    expect(decodeV1PropertyValue('bool', '0x02')).toBe('0x02');
    expect(decodeV1PropertyValue('u64', '0x01')).toBe('0x01'); // truncated
    expect(decodeV1PropertyValue('u8', '0x0101')).toBe('0x0101'); // trailing bytes
    expect(decodeV1PropertyValue('0x1::string::String', '0x05ff')).toBe('0x05ff');
    expect(decodeV1PropertyValue('0x1::string::String', '0x01ff')).toBe('0x01ff'); // invalid UTF-8
    expect(decodeV1PropertyValue('0x1::object::Object<T>', '0xabcd')).toBe('0xabcd'); // unknown type
    expect(decodeV1PropertyValue('u8', 'zz')).toBe('zz');
  });

  it('decodes a v1 PropertyMap (TokenData.default_properties)', () => {
    const map = {
      map: {
        data: [
          { key: 'TOKEN_BURNABLE_BY_OWNER', value: { type: 'bool', value: '0x01' } },
          { key: 'W_RARITY', value: { type: 'u64', value: '0x0100000000000000' } },
          { key: 'name', value: { type: '0x1::string::String', value: '0x0441757261' } },
        ],
      },
    };
    expect(decodeV1PropertyMap(map)).toEqual({
      TOKEN_BURNABLE_BY_OWNER: 'true',
      W_RARITY: '1',
      name: 'Aura',
    });
    expect(decodeV1PropertyMap({ map: { data: [] } })).toEqual({});
    expect(decodeV1PropertyMap(null)).toEqual({});
  });
});

describe('v2 property values (u8 type codes)', () => {
  it.each([
    [0, '0x01', 'true'],
    [1, '0x07', '7'],
    [2, '0x0100', '1'],
    [3, '0x01000000', '1'],
    [4, '0x0a00000000000000', '10'],
    [5, `0x02${'00'.repeat(15)}`, '2'],
    [6, `0x03${'00'.repeat(31)}`, '3'],
    [7, `0x${'00'.repeat(31)}0a`, `0x${'0'.repeat(63)}a`],
    [8, '0x03010203', '0x010203'],
    [9, '0x0642726f6e7a65', 'Bronze'],
  ])('code %i %s → %s', (code, hex, expected) => {
    expect(decodeV2PropertyValue(code, hex)).toBe(expected);
  });

  it('keeps unknown codes raw', () => {
    expect(decodeV2PropertyValue(10, '0x01')).toBe('0x01');
  });

  it('decodes a 0x4::property_map::PropertyMap resource', () => {
    const resource = {
      inner: {
        data: [
          { key: 'Rank', value: { type: 9, value: '0x0642726f6e7a65' } },
          { key: 'Level', value: { type: 4, value: '0x0200000000000000' } },
        ],
      },
    };
    expect(decodeV2PropertyMap(resource)).toEqual({ Rank: 'Bronze', Level: '2' });
  });
});
