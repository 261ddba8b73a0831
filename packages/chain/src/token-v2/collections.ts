import type { CollectionFact } from '../domain';
import { T, U64_MAX } from '../framework-types';
import { asString, asUintString, field } from '../json';
import { addressOrNull } from '../token-v1/move-ids';
import type { TxView } from '../transaction-view';
import type { WriteSetIndex } from '../write-set';

/**
 * v2 collections are objects: `0x4::collection::Collection` plus one supply resource. There is no
 * creation event, so every write of the Collection resource (creation or update) yields a fact
 * with the absolute supply numbers of this version.
 */
export function decodeV2Collections(view: TxView, writeSet: WriteSetIndex): CollectionFact[] {
  const facts: CollectionFact[] = [];
  const seen = new Set<string>();
  for (const address of writeSet.addressesWith(T.collection)) {
    const collection = writeSet.resource(address, T.collection);
    const creator = addressOrNull(collection?.['creator']);
    const name = asString(collection?.['name']);
    if (creator === null || name === null) continue;
    seen.add(address);
    facts.push({
      collectionId: address,
      tokenStandard: 'v2',
      creatorAddress: creator,
      collectionName: name,
      description: asString(collection?.['description']),
      uri: asString(collection?.['uri']),
      ...readSupply(writeSet, address),
      version: view.version,
    });
  }
  // A mint or burn rewrites only the supply resource, not the Collection: a supply-only fact
  // (creator and name empty: not shown by this transaction) keeps the counts current.
  for (const type of [T.fixedSupply, T.unlimitedSupply, T.concurrentSupply]) {
    for (const address of writeSet.addressesWith(type)) {
      if (seen.has(address)) continue;
      seen.add(address);
      facts.push({
        collectionId: address,
        tokenStandard: 'v2',
        creatorAddress: '',
        collectionName: '',
        description: null,
        uri: null,
        ...readSupply(writeSet, address),
        version: view.version,
      });
    }
  }
  return facts;
}

type Supply = Pick<CollectionFact, 'currentSupply' | 'maxSupply' | 'totalMinted'>;

function readSupply(writeSet: WriteSetIndex, address: string): Supply {
  const fixed = writeSet.resource(address, T.fixedSupply);
  if (fixed) {
    return {
      currentSupply: asUintString(fixed['current_supply']),
      maxSupply: asUintString(fixed['max_supply']),
      totalMinted: asUintString(fixed['total_minted']),
    };
  }
  const unlimited = writeSet.resource(address, T.unlimitedSupply);
  if (unlimited) {
    return {
      currentSupply: asUintString(unlimited['current_supply']),
      maxSupply: null,
      totalMinted: asUintString(unlimited['total_minted']),
    };
  }
  const concurrent = writeSet.resource(address, T.concurrentSupply);
  if (concurrent) {
    // Concurrent supply is an Aggregator {value, max_value}; max_value = u64::MAX is how
    // `create_unlimited_collection` spells "no limit" since the concurrent migration.
    const max = asUintString(field(concurrent['current_supply'], 'max_value'));
    return {
      currentSupply: asUintString(field(concurrent['current_supply'], 'value')),
      maxSupply: max === U64_MAX ? null : max,
      totalMinted: asUintString(field(concurrent['total_minted'], 'value')),
    };
  }
  return { currentSupply: null, maxSupply: null, totalMinted: null };
}
