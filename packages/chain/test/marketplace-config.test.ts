import { describe, expect, it } from 'vitest';
import {
  builtinMarketplaces,
  compileMarketplaces,
  DEFAULT_LOOTBOX_ADDRESS,
  decodeTransaction,
  type MarketplaceConfig,
  mdqMarketplace,
  v1TokenDataId,
} from '../src/index';
import { moduleEvent, userTransaction, writeResource } from '../src/testing';

const long = (short: string): string => `0x${short.slice(2).padStart(64, '0')}`;

/**
 * "Config, not code": a marketplace the package has never heard of, described only as data. Its
 * events name a v2 token by object, a v1 token by TokenId, an offer expiry in a resource of the
 * offer object, and the coin as a generic argument of the event type.
 */
const acme: MarketplaceConfig = {
  name: 'acme',
  events: {
    '0xacc::market::Listed': {
      kind: 'place_listing',
      fields: {
        listingId: '$.id',
        tokenDataId: '$.nft.inner',
        seller: '$.owner',
        price: '$.ask',
        coinType: { eventTypeArg: 0 },
      },
    },
    '0xacc::market::Sold': {
      kind: 'fill_listing',
      fields: {
        listingId: '$.id',
        tokenDataId: {
          v1TokenDataId: {
            creator: '$.token_id.token_data_id.creator',
            collection: '$.token_id.token_data_id.collection',
            name: '$.token_id.token_data_id.name',
          },
        },
        tokenName: '$.token_id.token_data_id.name',
        collectionName: '$.token_id.token_data_id.collection',
        creatorAddress: '$.token_id.token_data_id.creator',
        propertyVersion: '$.token_id.property_version',
        seller: '$.owner',
        buyer: '$.buyer',
        price: '$.paid',
      },
    },
    '0xacc::market::Bid': {
      kind: 'place_token_offer',
      fields: {
        offerId: '$.bid.inner',
        tokenDataId: '$.nft.inner',
        buyer: '$.bidder',
        price: '$.amount',
        expirationTimeUs: {
          resource: '0xacc::market::BidInfo',
          at: '$.bid.inner',
          path: '$.expires',
          unit: 'seconds',
        },
      },
    },
  },
};

const options = { marketplaces: [acme], lootboxAddress: DEFAULT_LOOTBOX_ADDRESS };

describe('marketplaces are configuration', () => {
  it('decodes a marketplace added purely as data', () => {
    const tx = userTransaction(
      [
        moduleEvent('0xacc::market::Listed<0x1::aptos_coin::AptosCoin>', {
          id: '0x1157',
          nft: { inner: '0x70ce' },
          owner: '0x5e11',
          ask: '4200',
        }),
        moduleEvent('0xacc::market::Sold', {
          id: '0x1158',
          token_id: {
            property_version: '0',
            token_data_id: { creator: '0xc4', collection: 'Old', name: 'Old #1' },
          },
          owner: '0x5e11',
          buyer: '0xb0b',
          paid: '99',
        }),
        moduleEvent('0xacc::market::Bid', {
          bid: { inner: '0xb1d' },
          nft: { inner: '0x70ce' },
          bidder: '0xb0b',
          amount: '7',
        }),
      ],
      [
        writeResource('0x70ce', '0x4::token::Token', {
          collection: { inner: '0xc011' },
          description: '',
          index: '0',
          name: '',
          uri: 'ipfs://x',
        }),
        writeResource('0x70ce', '0x4::token::TokenIdentifiers', {
          index: { value: '1' },
          name: { value: 'Acme #1' },
        }),
        writeResource('0xc011', '0x4::collection::Collection', {
          creator: '0xc4',
          name: 'Acme',
          description: '',
          uri: '',
        }),
        writeResource('0xb1d', '0xacc::market::BidInfo', { expires: '1740700800' }),
      ],
    );
    const facts = decodeTransaction(tx, options).marketActivities;
    expect(facts).toHaveLength(3);
    expect(facts[0]).toMatchObject({
      kind: 'place_listing',
      marketplace: 'acme',
      contractAddress: long('0xacc'),
      listingId: long('0x1157'),
      tokenDataId: long('0x70ce'),
      tokenStandard: 'v2',
      tokenName: 'Acme #1', // from TokenIdentifiers: Token.name is empty
      collectionId: long('0xc011'),
      collectionName: 'Acme',
      creatorAddress: long('0xc4'),
      seller: long('0x5e11'),
      price: '4200',
      tokenAmount: '1',
      coinType: '0x1::aptos_coin::AptosCoin',
    });
    expect(facts[1]).toMatchObject({
      kind: 'fill_listing',
      tokenStandard: 'v1',
      tokenDataId: v1TokenDataId('0xc4', 'Old', 'Old #1'),
      tokenName: 'Old #1',
      propertyVersion: '0',
      buyer: long('0xb0b'),
      price: '99',
      coinType: null,
    });
    expect(facts[2]).toMatchObject({
      kind: 'place_token_offer',
      offerId: long('0xb1d'),
      expirationTimeUs: '1740700800000000',
    });
  });

  it('ignores the same events without the config, and skips events without a price', () => {
    const listed = moduleEvent('0xacc::market::Listed', { id: '0x1', nft: { inner: '0x2' }, owner: '0x3' });
    expect(
      decodeTransaction(userTransaction([listed]), { ...options, marketplaces: [] }).marketActivities,
    ).toEqual([]);
    expect(decodeTransaction(userTransaction([listed]), options).marketActivities).toEqual([]);
  });

  it('rejects a config with a bad JSON path or a type mapped twice', () => {
    const bad: MarketplaceConfig = {
      name: 'bad',
      events: { '0x1::m::E': { kind: 'place_listing', fields: { price: 'price' } } },
    };
    expect(() => compileMarketplaces([bad])).toThrow(/JSON path/);
    expect(() => compileMarketplaces([acme, { ...acme, name: 'acme2' }])).toThrow(/mapped by both/);
  });

  it('places mdq at its configured address with the Wapal event shapes', () => {
    const event = moduleEvent('0xbeef::events::ListingPlacedEvent', {
      listing: '0x11',
      price: '5',
      seller: '0x22',
      type: 'fixed price',
      coin_type: '0x1::aptos_coin::AptosCoin',
      token_metadata: {
        collection: { vec: [{ inner: '0x33' }] },
        collection_name: 'C',
        creator_address: '0x44',
        property_version: { vec: [] },
        token: { vec: [{ inner: '0x55' }] },
        token_name: 'C #1',
      },
    });
    const decode = (marketplaces: MarketplaceConfig[]) =>
      decodeTransaction(userTransaction([event]), { marketplaces, lootboxAddress: DEFAULT_LOOTBOX_ADDRESS })
        .marketActivities;
    expect(decode(builtinMarketplaces())).toEqual([]); // default address is 0x…6d71
    const [fact] = decode([mdqMarketplace('0xbeef')]);
    expect(fact).toMatchObject({
      marketplace: 'mdq',
      kind: 'place_listing',
      contractAddress: long('0xbeef'),
      listingId: long('0x11'),
      tokenDataId: long('0x55'),
      collectionId: long('0x33'),
      tokenName: 'C #1',
      seller: long('0x22'),
      coinType: '0x1::aptos_coin::AptosCoin',
    });
  });

  it('reads mdq offer expiry and remaining count from its offer resources, like Wapal', () => {
    const placed = moduleEvent('0xbeef::events::CollectionOfferPlacedEvent', {
      collection_offer: '0x66',
      price: '10',
      purchaser: '0x77',
      token_amount: '3',
      collection_metadata: {
        collection: { vec: [{ inner: '0x33' }] },
        collection_name: 'C',
        creator_address: '0x44',
      },
    });
    const tx = userTransaction(
      [placed],
      [
        writeResource('0x66', '0xbeef::collection_offer::CollectionOffer', {
          expiration_time: '1740700800',
          item_price: '10',
          remaining: '3',
        }),
      ],
    );
    const [fact] = decodeTransaction(tx, {
      marketplaces: [mdqMarketplace('0xbeef')],
      lootboxAddress: DEFAULT_LOOTBOX_ADDRESS,
    }).marketActivities;
    expect(fact).toMatchObject({
      kind: 'place_collection_offer',
      offerId: long('0x66'),
      tokenAmount: '3',
      remainingTokenAmount: '3',
      expirationTimeUs: '1740700800000000',
      coinType: '0x1::aptos_coin::AptosCoin',
    });
  });

  it('compiles every built-in config', () => {
    // Six venues of nine event types each, Topaz again at its second address (nine), Souffl3's
    // three and Bluemove's ten.
    expect(compileMarketplaces(builtinMarketplaces()).size).toBe(7 * 9 + 3 + 10);
  });
});
