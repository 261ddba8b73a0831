import { describe, expect, it } from 'vitest';
import {
  BLUEMOVE_ADDRESS,
  builtinMarketplaces,
  DEFAULT_LOOTBOX_ADDRESS,
  decodeTransaction,
  TOPAZ_ADDRESS,
  TOPAZ_SECOND_ADDRESS,
  v1CollectionId,
  v1TokenDataId,
} from '../src/index';
import { moduleEvent, userTransaction } from '../src/testing';

const options = { marketplaces: builtinMarketplaces(), lootboxAddress: DEFAULT_LOOTBOX_ADDRESS };
const long = (short: string): string => `0x${short.slice(2).padStart(64, '0')}`;
const APT = '0x1::aptos_coin::AptosCoin';
const decode = (type: string, data: Record<string, unknown>) =>
  decodeTransaction(userTransaction([moduleEvent(type, data)]), options).marketActivities;

const tokenId = {
  token_data_id: { creator: '0xc4', collection: 'Bruh Bears', name: 'Bruh Bear #12' },
  property_version: '0',
};
const bear = v1TokenDataId('0xc4', 'Bruh Bears', 'Bruh Bear #12');
const bears = v1CollectionId('0xc4', 'Bruh Bears');

/*
 * Bluemove events shaped as the official legacy nft_orderbooks processor reads them
 * (aptos-indexer-processors python/processors/nft_orderbooks/parsers/bluemove_parser.py: the token
 * in `id` or `token_id`, price in `bid` / `min_selling_price` / `amount` /
 * `offer_collection_item.amount_per_item`, buyer in `bider_address` / `offerer` / `buyer_address`,
 * seller in `seller_address` / `owner_address` / `owner_token` / `can_claim_tokens`). The
 * marketplaceV2 payloads carry exactly the fields of the Move structs as community forks of the
 * processors deserialise them (BlueListEventType { id, amount, seller_address, royalty_payee,
 * royalty_numerator, royalty_denominator }, BlueBuyEventType { id, buyer_address },
 * BlueDelistEventType { id, seller_address }, BlueChangePriceEventType { id, amount,
 * seller_address }). No real Bluemove transaction is among the fixtures.
 */
describe('Bluemove (marketplaceV2, offer_lib)', () => {
  const type = (name: string) => `${BLUEMOVE_ADDRESS}::${name}`;

  it('reads a listing, a new price, a delist and a sale of the token’s one listing', () => {
    const [listed] = decode(type('marketplaceV2::ListEvent'), {
      id: tokenId,
      amount: '250000000',
      seller_address: '0x5e11',
      royalty_payee: '0xc4',
      royalty_numerator: '5',
      royalty_denominator: '100',
    });
    expect(listed).toMatchObject({
      marketplace: 'bluemove',
      kind: 'place_listing',
      tokenDataId: bear,
      tokenStandard: 'v1',
      collectionId: bears,
      tokenName: 'Bruh Bear #12',
      collectionName: 'Bruh Bears',
      creatorAddress: long('0xc4'),
      propertyVersion: '0',
      price: '250000000',
      tokenAmount: '1',
      coinType: APT,
      seller: long('0x5e11'),
      listingId: bear,
    });
    const [repriced] = decode(type('marketplaceV2::ChangePriceEvent'), {
      id: tokenId,
      amount: '200000000',
      seller_address: '0x5e11',
    });
    expect(repriced).toMatchObject({ kind: 'place_listing', price: '200000000', listingId: bear });
    const [delisted] = decode(type('marketplaceV2::DelistEvent'), { id: tokenId, seller_address: '0x5e11' });
    expect(delisted).toMatchObject({
      kind: 'cancel_listing',
      price: '0',
      seller: long('0x5e11'),
      listingId: bear,
    });
    const [sold] = decode(type('marketplaceV2::BuyEvent'), { id: tokenId, buyer_address: '0xb0' });
    expect(sold).toMatchObject({
      kind: 'fill_listing',
      buyer: long('0xb0'),
      seller: null,
      listingId: bear,
      price: '0',
      priceFromListing: true,
    });
  });

  it('reads token bids and collection bids', () => {
    const [bid] = decode(type('offer_lib::OfferEvent'), {
      token_id: tokenId,
      bid: '90000000',
      bider_address: '0xb0',
    });
    expect(bid).toMatchObject({
      kind: 'place_token_offer',
      tokenDataId: bear,
      price: '90000000',
      buyer: long('0xb0'),
      tokenAmount: '1',
    });
    const [accepted] = decode(type('offer_lib::AcceptOfferEvent'), {
      token_id: tokenId,
      bid: '90000000',
      offerer: '0xb0',
      owner_token: '0x5e11',
    });
    expect(accepted).toMatchObject({
      kind: 'fill_token_offer',
      price: '90000000',
      buyer: long('0xb0'),
      seller: long('0x5e11'),
    });
    const [cancelled] = decode(type('offer_lib::CancelOfferEvent'), { token_id: tokenId, offerer: '0xb0' });
    expect(cancelled).toMatchObject({ kind: 'cancel_token_offer', price: '0', buyer: long('0xb0') });

    const item = {
      collection_name: 'Bruh Bears',
      creator_address: '0xc4',
      amount_per_item: '80000000',
      quantity_offer_items: '3',
      offerer: '0xb0',
      can_claim_tokens: { data: [] },
    };
    const [placed] = decode(type('offer_lib::OfferCollectionEvent'), { offer_collection_item: item });
    expect(placed).toMatchObject({
      kind: 'place_collection_offer',
      tokenDataId: null,
      collectionId: bears,
      collectionName: 'Bruh Bears',
      price: '80000000',
      tokenAmount: '3',
      remainingTokenAmount: '3',
      buyer: long('0xb0'),
    });
    const [filled] = decode(type('offer_lib::AcceptOfferCollectionEvent'), {
      offer_collection_item: {
        ...item,
        quantity_offer_items: '2',
        can_claim_tokens: { data: [{ key: tokenId, value: '0x5e11' }] },
      },
    });
    expect(filled).toMatchObject({
      kind: 'fill_collection_offer',
      price: '80000000',
      tokenAmount: '1',
      remainingTokenAmount: '2',
      seller: long('0x5e11'),
    });
    const [withdrawn] = decode(type('offer_lib::CancelOfferCollectionEvent'), {
      offer_collection_item: item,
      quantity_cancel_items: '2',
    });
    expect(withdrawn).toMatchObject({
      kind: 'cancel_collection_offer',
      tokenAmount: '2',
      remainingTokenAmount: '0',
    });
  });

  it('leaves out the events the processor filters out (auctions, claims)', () => {
    expect(decode(type('marketplaceV2::ClaimTokenEvent'), { id: tokenId, bider_address: '0xb0' })).toEqual(
      [],
    );
  });
});

/*
 * Topaz's second address (0xd4c7…): the legacy processor maps it to Topaz with the same
 * `events::*` shapes (nft_marketplace_constants.py; topaz_parser.py reads token_id, price,
 * amount, seller, buyer). A ListEvent as the processor's TopazListEventType describes it.
 */
describe('Topaz at both addresses', () => {
  const list = {
    timestamp: '1680000000',
    listing_id: '0x77',
    token_id: tokenId,
    price: '300000000',
    amount: '1',
    seller: '0x5e11',
  };

  it('decodes the same ListEvent at either address as a Topaz listing', () => {
    for (const address of [TOPAZ_ADDRESS, TOPAZ_SECOND_ADDRESS]) {
      const [listed] = decode(`${address}::events::ListEvent`, list);
      expect([address, listed]).toEqual([
        address,
        expect.objectContaining({
          marketplace: 'topaz',
          kind: 'place_listing',
          tokenDataId: bear,
          price: '300000000',
          seller: long('0x5e11'),
          listingId: long('0x77'),
          contractAddress: address,
        }),
      ]);
    }
  });
});
