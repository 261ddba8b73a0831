import { structKey } from './move-type';

/** Comparison keys (long-address form) of the framework types the decoders read. */
export const T = {
  objectCore: structKey('0x1::object::ObjectCore'),
  objectGroup: structKey('0x1::object::ObjectGroup'),
  untransferable: structKey('0x1::object::Untransferable'),
  objectTransferEvent: structKey('0x1::object::TransferEvent'),
  objectTransfer: structKey('0x1::object::Transfer'),

  collection: structKey('0x4::collection::Collection'),
  fixedSupply: structKey('0x4::collection::FixedSupply'),
  unlimitedSupply: structKey('0x4::collection::UnlimitedSupply'),
  concurrentSupply: structKey('0x4::collection::ConcurrentSupply'),
  aptosCollection: structKey('0x4::aptos_token::AptosCollection'),
  token: structKey('0x4::token::Token'),
  tokenIdentifiers: structKey('0x4::token::TokenIdentifiers'),
  propertyMap: structKey('0x4::property_map::PropertyMap'),
  v2MintEvent: structKey('0x4::collection::MintEvent'),
  v2Mint: structKey('0x4::collection::Mint'),
  v2BurnEvent: structKey('0x4::collection::BurnEvent'),
  v2Burn: structKey('0x4::collection::Burn'),
  v2ConcurrentMintEvent: structKey('0x4::collection::ConcurrentMintEvent'),
  v2ConcurrentBurnEvent: structKey('0x4::collection::ConcurrentBurnEvent'),
  v2TokenMutationEvent: structKey('0x4::token::MutationEvent'),
  v2TokenMutation: structKey('0x4::token::Mutation'),

  v1TokenStore: structKey('0x3::token::TokenStore'),
  v1Collections: structKey('0x3::token::Collections'),
  v1PendingClaims: structKey('0x3::token_transfers::PendingClaims'),
  v1TokenId: structKey('0x3::token::TokenId'),
  v1TokenDataId: structKey('0x3::token::TokenDataId'),
  v1Token: structKey('0x3::token::Token'),
  v1TokenData: structKey('0x3::token::TokenData'),
  v1CollectionData: structKey('0x3::token::CollectionData'),
  v1TokenOfferId: structKey('0x3::token_transfers::TokenOfferId'),
} as const;

/** Where soft-burned v2 tokens go: `object::burn` uses 0xfff…f; some contracts transfer to 0x0. */
export const BURN_ADDRESSES: ReadonlySet<string> = new Set([`0x${'0'.repeat(64)}`, `0x${'f'.repeat(64)}`]);

export const U64_MAX = '18446744073709551615';
