import { describe, expect, it } from 'vitest';
import {
  DEFAULT_LOOTBOX_ADDRESS,
  DEFAULT_MARKETPLACE_ADDRESS,
  isAddress,
  normalizeAddress,
} from '../src/index';

describe('address normalization', () => {
  it('pads short and special addresses to 64 hex digits', () => {
    expect(normalizeAddress('0x1')).toBe(`0x${'0'.repeat(63)}1`);
    expect(normalizeAddress('0x0')).toBe(`0x${'0'.repeat(64)}`);
  });

  it('restores a stripped leading zero (63-digit ids in Move values)', () => {
    const stripped = '0xe3c39dbed236c7ddcf847f9734baf8168911babd8384f17538102b17ab156bd';
    expect(stripped).toHaveLength(65);
    expect(normalizeAddress(stripped)).toBe(`0x0${stripped.slice(2)}`);
  });

  it('lowercases mixed case', () => {
    expect(normalizeAddress('0xABCdef')).toBe(`0x${'0'.repeat(58)}abcdef`);
  });

  it('rejects non-addresses', () => {
    for (const bad of ['', '0x', '1', '0xg1', `0x${'1'.repeat(65)}`, 'fixed price']) {
      expect(isAddress(bad)).toBe(false);
      expect(() => normalizeAddress(bad)).toThrow();
    }
  });

  it('has the devnet contract defaults in long form', () => {
    expect(DEFAULT_MARKETPLACE_ADDRESS).toBe(`0x${'0'.repeat(60)}6d71`);
    expect(DEFAULT_LOOTBOX_ADDRESS).toBe(`0x${'0'.repeat(60)}6d72`);
  });
});
