import type { FieldSource, MarketEventConfig, MarketFieldSources, MarketplaceConfig } from './config';
import { APT } from './reference-shape';

export const BLUEMOVE_ADDRESS = '0xd1fd99c1944b84d1670a2536417e997864ad12303d19eac725891691b04d614e';

/*
 * Bluemove's v1 marketplace (`marketplaceV2`, offers in `offer_lib`), as the official legacy
 * `nft_orderbooks` processor reads it (aptos-indexer-processors `python/processors/nft_orderbooks/
 * parsers/bluemove_parser.py`): every field is the first of several event fields that is present,
 * in the processor's order. No real Bluemove transaction is among the fixtures, so this is checked
 * against the processor's reading only (docs/CONFORMANCE.md).
 */

/** A token is named by `token_id` or `id` (both a v1 `TokenId`); collection offers by `offer_collection_item`. */
const TOKEN_ROOTS = ['$.token_id', '$.id'] as const;
const v1Token = (root: string): FieldSource => ({
  v1TokenDataId: {
    creator: `${root}.token_data_id.creator`,
    collection: `${root}.token_data_id.collection`,
    name: `${root}.token_data_id.name`,
  },
});
const ITEM = '$.offer_collection_item';

const subject: MarketFieldSources = {
  tokenDataId: TOKEN_ROOTS.map(v1Token),
  collectionId: [
    ...TOKEN_ROOTS.map(
      (root): FieldSource => ({
        v1CollectionId: {
          creator: `${root}.token_data_id.creator`,
          collection: `${root}.token_data_id.collection`,
        },
      }),
    ),
    { v1CollectionId: { creator: `${ITEM}.creator_address`, collection: `${ITEM}.collection_name` } },
  ],
  collectionName: [
    ...TOKEN_ROOTS.map((root) => `${root}.token_data_id.collection`),
    `${ITEM}.collection_name`,
  ],
  creatorAddress: [...TOKEN_ROOTS.map((root) => `${root}.token_data_id.creator`), `${ITEM}.creator_address`],
  tokenName: TOKEN_ROOTS.map((root) => `${root}.token_data_id.name`),
  propertyVersion: TOKEN_ROOTS.map((root) => `${root}.property_version`),
  // The processor reads prices as APT (it divides them by 10^8).
  coinType: { const: APT },
  // price = bid or min_selling_price or amount or offer_collection_item.amount_per_item
  price: ['$.bid', '$.min_selling_price', '$.amount', `${ITEM}.amount_per_item`],
  // buyer = bider_address or offer_collection_item.offerer or offerer or buyer_address
  buyer: ['$.bider_address', `${ITEM}.offerer`, '$.offerer', '$.buyer_address'],
  // seller = seller_address or owner_address or owner_token or the first can_claim_tokens value
  seller: ['$.seller_address', '$.owner_address', '$.owner_token', `${ITEM}.can_claim_tokens.data[0].value`],
  // amount = quantity_cancel_items or 1 (bid placements: offer_collection_item.quantity_offer_items)
  tokenAmount: ['$.quantity_cancel_items', { const: '1' }],
};

/**
 * Bluemove keeps one listing per token (its listings table is keyed by the token), and its buy
 * and delist events name no listing: the listing is the token's.
 */
const listing: MarketFieldSources = { ...subject, listingId: TOKEN_ROOTS.map(v1Token) };
const placedBid: MarketFieldSources = {
  ...subject,
  tokenAmount: ['$.quantity_cancel_items', `${ITEM}.quantity_offer_items`, { const: '1' }],
};

const LIST: MarketEventConfig = { kind: 'place_listing', fields: listing };

export const bluemove: MarketplaceConfig = {
  name: 'bluemove',
  events: {
    '0xd1fd99c1944b84d1670a2536417e997864ad12303d19eac725891691b04d614e::marketplaceV2::ListEvent': LIST,
    // A new price for the token's listing: the same listing placed again at that price.
    '0xd1fd99c1944b84d1670a2536417e997864ad12303d19eac725891691b04d614e::marketplaceV2::ChangePriceEvent':
      LIST,
    // `DelistEvent { id, seller_address }` names no price; a cancel only closes the listing, which
    // keeps its listed price (as Souffl3's cancel), so the activity is stored at 0.
    '0xd1fd99c1944b84d1670a2536417e997864ad12303d19eac725891691b04d614e::marketplaceV2::DelistEvent': {
      kind: 'cancel_listing',
      fields: { ...listing, price: [...(listing.price as FieldSource[]), { const: '0' }] },
    },
    // `BuyEvent { id, buyer_address }` names neither price nor seller; the processor takes both from
    // the listing it stored, and so does mdq (priceFromListing).
    '0xd1fd99c1944b84d1670a2536417e997864ad12303d19eac725891691b04d614e::marketplaceV2::BuyEvent': {
      kind: 'fill_listing',
      fields: listing,
      priceFromListing: true,
    },
    '0xd1fd99c1944b84d1670a2536417e997864ad12303d19eac725891691b04d614e::offer_lib::OfferEvent': {
      kind: 'place_token_offer',
      fields: placedBid,
    },
    // The processor takes a cancelled bid's price from the bid it stored; the cancel only closes it.
    '0xd1fd99c1944b84d1670a2536417e997864ad12303d19eac725891691b04d614e::offer_lib::CancelOfferEvent': {
      kind: 'cancel_token_offer',
      fields: { ...subject, price: [...(subject.price as FieldSource[]), { const: '0' }] },
    },
    '0xd1fd99c1944b84d1670a2536417e997864ad12303d19eac725891691b04d614e::offer_lib::AcceptOfferEvent': {
      kind: 'fill_token_offer',
      fields: subject,
    },
    '0xd1fd99c1944b84d1670a2536417e997864ad12303d19eac725891691b04d614e::offer_lib::OfferCollectionEvent': {
      kind: 'place_collection_offer',
      fields: { ...placedBid, remainingTokenAmount: `${ITEM}.quantity_offer_items` },
    },
    '0xd1fd99c1944b84d1670a2536417e997864ad12303d19eac725891691b04d614e::offer_lib::CancelOfferCollectionEvent':
      {
        kind: 'cancel_collection_offer',
        fields: { ...subject, remainingTokenAmount: { const: '0' } },
      },
    // What the offer still wants after the fill: its offer_collection_item.quantity_offer_items.
    '0xd1fd99c1944b84d1670a2536417e997864ad12303d19eac725891691b04d614e::offer_lib::AcceptOfferCollectionEvent':
      {
        kind: 'fill_collection_offer',
        fields: { ...subject, remainingTokenAmount: `${ITEM}.quantity_offer_items` },
      },
  },
};
