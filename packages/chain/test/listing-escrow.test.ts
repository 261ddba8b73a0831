import { describe, expect, it } from 'vitest';
import type { MarketActivityFact, OwnershipFact } from '../src/domain';
import { applyV1ListingEscrow } from '../src/token-v1/listing-escrow';

const token = `0x${'a'.repeat(64)}`;
const seller = `0x${'5'.repeat(64)}`;
const buyer = `0x${'b'.repeat(64)}`;

function market(kind: MarketActivityFact['kind'], standard: 'v1' | 'v2' = 'v1'): MarketActivityFact {
  return {
    kind,
    version: 9,
    eventIndex: 0,
    timestampUs: '1',
    marketplace: 'mdq',
    contractAddress: seller,
    rawEventType: 'x::events::E',
    tokenDataId: token,
    tokenStandard: standard,
    propertyVersion: '0',
    collectionId: null,
    collectionName: null,
    creatorAddress: null,
    tokenName: null,
    price: '100',
    tokenAmount: '1',
    coinType: null,
    seller,
    buyer: kind === 'fill_listing' ? buyer : null,
    listingId: '0x1',
    offerId: null,
    commission: null,
    royalties: null,
    expirationTimeUs: null,
    remainingTokenAmount: null,
  };
}

function owns(owner: string, amount: string): OwnershipFact {
  return {
    tokenDataId: token,
    tokenStandard: 'v1',
    propertyVersion: '0',
    collectionId: null,
    owner,
    tableHandle: '0xh',
    amount,
    isSoulbound: null,
    version: 9,
  };
}

describe('v1 listing escrow', () => {
  it('keeps an escrowed v1 token with its seller while listed', () => {
    const result = applyV1ListingEscrow([owns(seller, '0')], [market('place_listing')], 9);
    expect(result.map((o) => [o.owner, o.amount])).toEqual([[seller, '1']]);
  });

  it('takes it from the seller when the listing fills (no TokenStore write for the seller)', () => {
    const result = applyV1ListingEscrow([owns(buyer, '1')], [market('fill_listing')], 9);
    expect(result.map((o) => [o.owner, o.amount])).toEqual([
      [buyer, '1'],
      [seller, '0'],
    ]);
  });

  it('leaves what the TokenStore shows for the seller on a fill, and v2 tokens alone', () => {
    expect(applyV1ListingEscrow([owns(seller, '2')], [market('fill_listing')], 9)).toEqual([
      owns(seller, '2'),
    ]);
    expect(applyV1ListingEscrow([], [market('place_listing', 'v2')], 9)).toEqual([]);
  });
});
