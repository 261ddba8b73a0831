import type { TokenDataFact } from '../domain';
import { T } from '../framework-types';
import { asString, field } from '../json';
import { decodeV2PropertyMap } from '../property-map';
import { addressOrNull } from '../token-v1/move-ids';
import type { TxView } from '../transaction-view';
import type { WriteSetIndex } from '../write-set';
import type { TokenSet } from './token-set';

/**
 * Token data of every v2 token whose `0x4::token::Token` resource is in the write set. Newer tokens
 * keep `Token.name` empty and the real name in `TokenIdentifiers` (README §5.3).
 */
export function decodeV2Tokens(view: TxView, writeSet: WriteSetIndex, tokenSet: TokenSet): TokenDataFact[] {
  const facts: TokenDataFact[] = [];
  for (const address of writeSet.addressesWith(T.token)) {
    const token = writeSet.resource(address, T.token);
    const collectionId = tokenSet.collectionOf.get(address);
    if (!token || collectionId === undefined) continue;
    const collection = writeSet.resource(collectionId, T.collection);
    const propertyMap = writeSet.resource(address, T.propertyMap);
    facts.push({
      tokenDataId: address,
      tokenStandard: 'v2',
      collectionId,
      creatorAddress: addressOrNull(collection?.['creator']),
      collectionName: asString(collection?.['name']),
      tokenName: tokenName(token, writeSet.resource(address, T.tokenIdentifiers)),
      description: asString(token['description']),
      tokenUri: asString(token['uri']),
      properties: propertyMap ? decodeV2PropertyMap(propertyMap) : null,
      supply: null,
      maximum: null,
      largestPropertyVersion: null,
      isSoulbound: writeSet.isSoulbound(address),
      version: view.version,
    });
  }
  return facts;
}

export function tokenName(token: unknown, identifiers: unknown): string {
  const name = asString(field(token, 'name')) ?? '';
  if (name !== '') return name;
  return asString(field(field(identifiers, 'name'), 'value')) ?? '';
}
