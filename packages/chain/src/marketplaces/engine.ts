import { isAddress, normalizeAddress } from '../address';
import type { MarketActivityFact, TokenStandard } from '../domain';
import { eventRef } from '../event-ref';
import { T } from '../framework-types';
import { asString, objectInner } from '../json';
import { structKey } from '../move-type';
import { addressOrNull } from '../token-v1/move-ids';
import { tokenName } from '../token-v2/tokens';
import type { TxEvent, TxView } from '../transaction-view';
import { v1CollectionId } from '../v1-ids';
import type { WriteSetIndex } from '../write-set';
import type { MarketEventConfig, MarketField, MarketplaceConfig } from './config';
import { type CompiledSource, compileSource, evaluateSource } from './field-source';

interface CompiledEvent {
  marketplace: string;
  kind: MarketEventConfig['kind'];
  fields: [MarketField, CompiledSource[]][];
  priceFromListing: boolean;
}

/** Event type key → how to read it. Built once per decoder configuration; bad paths throw here. */
export type MarketplaceIndex = Map<string, CompiledEvent>;

export function compileMarketplaces(configs: readonly MarketplaceConfig[]): MarketplaceIndex {
  const index: MarketplaceIndex = new Map();
  for (const config of configs) {
    for (const [type, eventConfig] of Object.entries(config.events)) {
      const key = structKey(type);
      const existing = index.get(key);
      if (existing)
        throw new Error(`event ${type} is mapped by both ${existing.marketplace} and ${config.name}`);
      const fields = Object.entries(eventConfig.fields).map(
        ([field, sources]): [MarketField, CompiledSource[]] => {
          const list = Array.isArray(sources) ? sources : [sources];
          return [field as MarketField, list.map(compileSource)];
        },
      );
      if (eventConfig.priceFromListing && eventConfig.kind !== 'fill_listing')
        throw new Error(`event ${type}: priceFromListing is for fill_listing events only`);
      index.set(key, {
        marketplace: config.name,
        kind: eventConfig.kind,
        fields,
        priceFromListing: eventConfig.priceFromListing === true,
      });
    }
  }
  return index;
}

const ADDRESS_FIELDS: readonly MarketField[] = [
  'tokenDataId',
  'collectionId',
  'creatorAddress',
  'seller',
  'buyer',
  'listingId',
  'offerId',
];

export function decodeMarketEvents(
  view: TxView,
  index: MarketplaceIndex,
  writeSet: WriteSetIndex,
): MarketActivityFact[] {
  const facts: MarketActivityFact[] = [];
  for (const event of view.events) {
    const compiled = event.struct ? index.get(event.struct.key) : undefined;
    if (!compiled) continue;
    const fact = decodeMarketEvent(view, event, compiled, writeSet);
    if (fact) facts.push(fact);
  }
  return facts;
}

function decodeMarketEvent(
  view: TxView,
  event: TxEvent,
  compiled: CompiledEvent,
  writeSet: WriteSetIndex,
): MarketActivityFact | null {
  const values = new Map<MarketField, string>();
  const origin = new Map<MarketField, CompiledSource['kind']>();
  for (const [field, sources] of compiled.fields) {
    for (const source of sources) {
      const value = evaluateSource(source, event, writeSet, view.sender);
      if (value === null) continue;
      values.set(field, value);
      origin.set(field, source.kind);
      break;
    }
  }
  // Ids are copied from Move values with leading zeros stripped; store them in long form.
  for (const field of ADDRESS_FIELDS) {
    const value = values.get(field);
    if (value !== undefined && isAddress(value)) values.set(field, normalizeAddress(value));
  }
  const named = values.get('price');
  // The listing's price stands in for a sale that names none (filled in by the indexer's writer).
  const fromListing = named === undefined && compiled.priceFromListing;
  const price = fromListing ? '0' : named;
  // A price is what makes a market event usable; an event shaped differently than its config says is skipped.
  if (price === undefined || !/^\d+$/.test(price)) return null;
  const get = (field: MarketField): string | null => values.get(field) ?? null;
  const tokenStandard = standardOf(origin, values);
  const fact: MarketActivityFact = {
    ...eventRef(view, event.index),
    kind: compiled.kind,
    marketplace: compiled.marketplace,
    contractAddress: event.isModuleEvent ? (event.struct?.address ?? event.account) : event.account,
    rawEventType: event.type,
    tokenDataId: get('tokenDataId'),
    tokenStandard,
    propertyVersion: get('propertyVersion'),
    collectionId: get('collectionId'),
    collectionName: get('collectionName'),
    creatorAddress: get('creatorAddress'),
    tokenName: get('tokenName'),
    price,
    tokenAmount: get('tokenAmount') ?? '1',
    coinType: get('coinType'),
    seller: get('seller'),
    buyer: get('buyer'),
    listingId: get('listingId'),
    offerId: get('offerId'),
    commission: get('commission'),
    royalties: get('royalties'),
    expirationTimeUs: get('expirationTimeUs'),
    remainingTokenAmount: get('remainingTokenAmount'),
  };
  if (fromListing) fact.priceFromListing = true;
  enrich(fact, writeSet);
  return fact;
}

function standardOf(
  origin: Map<MarketField, CompiledSource['kind']>,
  values: Map<MarketField, string>,
): TokenStandard | null {
  for (const field of ['tokenDataId', 'collectionId'] as const) {
    const kind = origin.get(field);
    if (kind === undefined) continue;
    if (kind === 'v1TokenDataId' || kind === 'v1CollectionId') return 'v1';
    const value = values.get(field);
    return value !== undefined && isAddress(value) ? 'v2' : null;
  }
  return null;
}

/**
 * Fill what the event leaves out from the same transaction's write set, for every marketplace
 * alike: a v2 token's name and collection (Token / TokenIdentifiers), the collection's name and
 * creator (Collection), and a v1 collection id from its creator and name.
 */
function enrich(fact: MarketActivityFact, writeSet: WriteSetIndex): void {
  if (fact.tokenStandard === 'v2' && fact.tokenDataId !== null) {
    const token = writeSet.resource(fact.tokenDataId, T.token);
    if (token) {
      if (fact.tokenName === null) {
        const name = tokenName(token, writeSet.resource(fact.tokenDataId, T.tokenIdentifiers));
        if (name !== '') fact.tokenName = name;
      }
      fact.collectionId ??= addressOrNull(objectInner(token['collection']));
    }
  }
  if (fact.tokenStandard === 'v2' && fact.collectionId !== null) {
    const collection = writeSet.resource(fact.collectionId, T.collection);
    if (collection) {
      fact.collectionName ??= asString(collection['name']);
      fact.creatorAddress ??= addressOrNull(collection['creator']);
    }
  }
  if (fact.tokenStandard === 'v1' && fact.collectionId === null) {
    if (fact.creatorAddress !== null && fact.collectionName !== null) {
      fact.collectionId = v1CollectionId(fact.creatorAddress, fact.collectionName);
    }
  }
}
