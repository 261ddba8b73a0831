import { isAddress, normalizeAddress } from '../address';
import { asString, asUintString, field } from '../json';
import { v1CollectionId, v1TokenDataId } from '../v1-ids';

/** A parsed `0x3::token::TokenDataId { creator, collection, name }` with its derived ids. */
export interface V1TokenDataKey {
  creator: string;
  collection: string;
  name: string;
  tokenDataId: string;
  collectionId: string;
}

export interface V1TokenKey extends V1TokenDataKey {
  propertyVersion: string;
}

export function parseTokenDataId(value: unknown): V1TokenDataKey | null {
  const creator = asString(field(value, 'creator'));
  const collection = asString(field(value, 'collection'));
  const name = asString(field(value, 'name'));
  if (creator === null || !isAddress(creator) || collection === null || name === null) return null;
  return {
    creator: normalizeAddress(creator),
    collection,
    name,
    tokenDataId: v1TokenDataId(creator, collection, name),
    collectionId: v1CollectionId(creator, collection),
  };
}

/** `0x3::token::TokenId { token_data_id, property_version }`. */
export function parseTokenId(value: unknown): V1TokenKey | null {
  const data = parseTokenDataId(field(value, 'token_data_id'));
  const propertyVersion = asUintString(field(value, 'property_version'));
  return data && propertyVersion !== null ? { ...data, propertyVersion } : null;
}

export function addressOrNull(value: unknown): string | null {
  const text = asString(value);
  return text !== null && isAddress(text) ? normalizeAddress(text) : null;
}
