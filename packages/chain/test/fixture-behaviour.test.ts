import { describe, expect, it } from 'vitest';
import { findFixtureTransaction } from '../src/fixtures/index';
import { type DecodedTransaction, decodeTransaction, v1TokenDataId } from '../src/index';
import { FIXTURES, NO_FIXTURES, OPTIONS } from './fixture-context';

/** Behaviour the official expected rows do not cover, checked on real transactions. */
const decode = (version: string): DecodedTransaction =>
  decodeTransaction(findFixtureTransaction(version, FIXTURES).rest, OPTIONS);
const long = (short: string): string => `0x${short.slice(2).padStart(64, '0')}`;

describe.skipIf(NO_FIXTURES)('fixture behaviour beyond the official rows', () => {
  it('resolves an escrowed token to the seller through the listing object (2386809975)', () => {
    const seller = long('0xc24b9ea285e953bbf7470309b879bc60d5a68e71e2f2c17be047c3f74664e82b');
    const token = long('0x826cb695c5748ae84e9ed87902e9b214058d7b7589b32bcc48c30bdfe89f03e7');
    const ownership = decode('2386809975').ownerships.find((fact) => fact.tokenDataId === token);
    expect(ownership).toMatchObject({
      owner: seller,
      amount: '1',
      directOwner: long('0x3929540e32fb063ddf7fecb764c914493d2844978621767b9f013326093258eb'),
    });
  });

  it('decodes both venues of a cross-venue transaction (2386809975: Wapal cancel + Tradeport list)', () => {
    const kinds = decode('2386809975').marketActivities.map((fact) => `${fact.marketplace}:${fact.kind}`);
    expect(kinds).toEqual([
      'tradeport_v2:place_listing',
      'wapal:cancel_listing',
      'tradeport_v2:place_listing',
    ]);
  });

  it('decodes Tradeport v1 BuyEvents with v1 ids next to the Wapal fill (2382221134)', () => {
    const fills = decode('2382221134').marketActivities.filter((fact) => fact.marketplace === 'tradeport_v1');
    const creator = '0x43ec2cb158e3569842d537740fd53403e992b9e7349cc5d3dfaa5aff8faaef2';
    expect(fills.map((fact) => [fact.tokenDataId, fact.seller, fact.price, fact.propertyVersion])).toEqual([
      [
        v1TokenDataId(creator, 'Bruh Bears', 'Bruh Bear #3428'),
        long('0xed4f5679c427845c8695a6a3ef7b31af448cf90c0d1b3e35653d8acf2fffd010'),
        '398000000',
        '1',
      ],
      [
        v1TokenDataId(creator, 'Bruh Bears', 'Bruh Bear #3770'),
        long('0x8c557bb0a12d47c1eda90dd4883b44674111b915fa39ff862e6a0a39140dcd4'),
        '398000000',
        '1',
      ],
    ]);
    // Tradeport's own listing table is keyed by TokenId too; its deletions are not balances.
    expect(decode('2382221134').ownerships.every((fact) => fact.owner !== null)).toBe(true);
  });

  it('treats a transfer to 0x0 as a soft burn (145959468)', () => {
    const decoded = decode('145959468');
    expect(decoded.burnedTokens).toHaveLength(1);
    const burn = decoded.tokenActivities.at(-1);
    expect(burn).toMatchObject({ kind: 'burn', eventType: '0x1::object::TransferEvent', amount: '1' });
    expect(decoded.ownerships.map((fact) => fact.amount)).toEqual(['0']);
  });

  it('reads module-event v1 cancel offers with the pending claim cleared (2819452713)', () => {
    const decoded = decode('2819452713');
    expect(decoded.tokenActivities.map((fact) => fact.kind)).toEqual(['deposit', 'cancel_offer']);
    expect(decoded.pendingClaims).toEqual([expect.objectContaining({ amount: '0' })]);
  });

  it('keeps the burned Sloth Ball at amount 0 for its last owner (1737056775 reveal)', () => {
    const decoded = decode('1737056775');
    expect(decoded.burnedTokens).toHaveLength(1);
    const burned = decoded.ownerships.filter((fact) => decoded.burnedTokens.includes(fact.tokenDataId));
    expect(burned.map((fact) => fact.amount)).toEqual(['0']);
    expect(decoded.tokenActivities.filter((fact) => fact.kind === 'mint')).toHaveLength(6);
  });

  it('names the v1 token a BurnTokenEvent burned, its balance 0 (11648867)', () => {
    // The official processor's rows for this transaction (token_activities_v2, current_token_ownerships_v2):
    // the burned Apter Coupon, whose TokenData the transaction does not touch (untracked supply).
    const coupon = '0xedaa0ae425fc01fc52c0873e837713d3ab35009ed423ddad11fb2da06262e8fa';
    const decoded = decode('11648867');
    expect(decoded.burnedTokens).toEqual([]);
    expect(decoded.v1BurnedUnlessHeld).toEqual([coupon]);
    expect(
      decoded.ownerships.filter((fact) => fact.tokenDataId === coupon).map((fact) => fact.amount),
    ).toEqual(['0']);
  });

  it('decodes v1 default properties of ANS names (2080538)', () => {
    const tokens = decode('2080538').tokens;
    expect(tokens.length).toBeGreaterThan(0);
    for (const token of tokens) expect(token.properties).not.toBeNull();
  });
});
