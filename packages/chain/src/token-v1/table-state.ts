import type {
  CollectionFact,
  OwnershipFact,
  PendingClaimFact,
  TableHandleFact,
  TokenDataFact,
} from '../domain';
import { T } from '../framework-types';
import { asString, asUintString, field } from '../json';
import { structKey } from '../move-type';
import { decodeV1PropertyMap } from '../property-map';
import type { TableItemChange, TxView } from '../transaction-view';
import { v1CollectionId } from '../v1-ids';
import { offerKey, type V1EventFacts } from './activities';
import { addressOrNull, parseTokenDataId, parseTokenId } from './move-ids';

/**
 * Token v1 state lives in tables: balances in each owner's TokenStore, token and collection data in
 * the creator's Collections, direct-transfer offers in PendingClaims. Table items only name their
 * handle, so owners come from the resources written in the same transaction (also emitted as
 * TableHandleFacts for the indexer to remember) and otherwise stay null with the handle.
 */
export interface V1TableFacts {
  tableHandles: TableHandleFact[];
  collections: CollectionFact[];
  tokens: TokenDataFact[];
  ownerships: OwnershipFact[];
  pendingClaims: PendingClaimFact[];
}

const HANDLE_SOURCES: { type: string; kind: TableHandleFact['kind']; fields: string[] }[] = [
  { type: T.v1TokenStore, kind: 'token_store', fields: ['tokens'] },
  { type: T.v1Collections, kind: 'collections', fields: ['collection_data', 'token_data'] },
  { type: T.v1PendingClaims, kind: 'pending_claims', fields: ['pending_claims'] },
];

const STRING_KEY = structKey('0x1::string::String');

export function decodeV1Tables(view: TxView, events: V1EventFacts): V1TableFacts {
  const tableHandles = readTableHandles(view);
  const handles = new Map(tableHandles.map((fact) => [fact.handle, fact]));
  const facts: V1TableFacts = {
    tableHandles,
    collections: [],
    tokens: [],
    ownerships: [],
    pendingClaims: [],
  };
  const collectionCreators = creatorsByCollectionName(view, events);
  const foreign = foreignTableHandles(view);
  for (const item of view.tableItems) {
    const keyType = structKey(item.keyType);
    const handle = handles.get(item.handle) ?? null;
    // A table that a marketplace resource owns (e.g. Tradeport's ListingStore, keyed by TokenId) is not a balance.
    if (handle === null && foreign.has(item.handle)) continue;
    if (keyType === T.v1TokenId) readTokenStoreItem(view, item, handle, facts);
    else if (keyType === T.v1TokenDataId) readTokenDataItem(view, item, facts);
    else if (keyType === STRING_KEY) readCollectionDataItem(view, item, handle, collectionCreators, facts);
    else if (keyType === T.v1TokenOfferId) readPendingClaimItem(view, item, handle, events, facts);
  }
  inferOwnersFromEvents(facts.ownerships, events);
  return facts;
}

/**
 * After the module-event migration a deposit no longer rewrites the owner's TokenStore resource,
 * so a store's handle can be unknown within the transaction. The deposit / withdraw events name
 * the accounts: a single unresolved positive balance of a token belongs to the last account that
 * received it, a single unresolved emptied balance to the first account it left. Anything more
 * ambiguous stays null for the indexer to resolve from stored handles. Inferred owners are not
 * turned into TableHandleFacts: they are a reading of events, not a resource the chain wrote.
 */
function inferOwnersFromEvents(ownerships: OwnershipFact[], events: V1EventFacts): void {
  const byToken = new Map<string, OwnershipFact[]>();
  for (const fact of ownerships) {
    const key = `${fact.tokenDataId}/${fact.propertyVersion}`;
    byToken.set(key, [...(byToken.get(key) ?? []), fact]);
  }
  for (const [key, facts] of byToken) {
    const known = new Set(facts.map((fact) => fact.owner).filter((owner) => owner !== null));
    const accounts = (kind: 'deposit' | 'withdraw'): string[] =>
      events.activities
        .filter((a) => a.kind === kind && `${a.tokenDataId}/${a.propertyVersion}` === key)
        .map((a) => (kind === 'deposit' ? a.toAddress : a.fromAddress))
        .filter((account): account is string => account !== null && !known.has(account));
    const unresolved = facts.filter((fact) => fact.owner === null);
    const positive = unresolved.filter((fact) => fact.amount !== '0');
    const emptied = unresolved.filter((fact) => fact.amount === '0');
    if (positive.length === 1) (positive[0] as OwnershipFact).owner = accounts('deposit').at(-1) ?? null;
    if (emptied.length === 1) (emptied[0] as OwnershipFact).owner = accounts('withdraw')[0] ?? null;
  }
}

function readTableHandles(view: TxView): TableHandleFact[] {
  const facts: TableHandleFact[] = [];
  for (const write of view.resourceWrites) {
    const source = HANDLE_SOURCES.find((candidate) => candidate.type === write.struct?.key);
    if (!source) continue;
    for (const name of source.fields) {
      const handle = addressOrNull(field(write.data[name], 'handle'));
      if (handle !== null)
        facts.push({ handle, owner: write.address, kind: source.kind, version: view.version });
    }
  }
  return facts;
}

/** Handles of tables held by resources other than the 0x3 ones, as `{handle}` fields written in this transaction. */
function foreignTableHandles(view: TxView): Set<string> {
  const foreign = new Set<string>();
  for (const write of view.resourceWrites) {
    if (HANDLE_SOURCES.some((source) => source.type === write.struct?.key)) continue;
    for (const value of Object.values(write.data)) {
      const handle = addressOrNull(field(value, 'handle'));
      if (handle !== null) foreign.add(handle);
    }
  }
  return foreign;
}

function readTokenStoreItem(
  view: TxView,
  item: TableItemChange,
  handle: TableHandleFact | null,
  facts: V1TableFacts,
): void {
  // Other contracts key their own tables by TokenId too; only TokenStore tables hold balances.
  if (handle !== null && handle.kind !== 'token_store') return;
  if (!item.deleted && structKey(item.valueType ?? '') !== T.v1Token) return;
  const token = parseTokenId(item.key);
  if (token === null) return;
  const amount = item.deleted ? '0' : asUintString(field(item.value, 'amount'));
  if (amount === null) return;
  const fact: OwnershipFact = {
    tokenDataId: token.tokenDataId,
    tokenStandard: 'v1',
    propertyVersion: token.propertyVersion,
    collectionId: token.collectionId,
    owner: handle?.owner ?? null,
    tableHandle: item.handle,
    amount,
    isSoulbound: null,
    version: view.version,
  };
  // Tokens with property version > 0 carry their own (mutated) property map.
  if (!item.deleted && token.propertyVersion !== '0') {
    fact.tokenProperties = decodeV1PropertyMap(field(item.value, 'token_properties'));
  }
  facts.ownerships.push(fact);
}

function readTokenDataItem(view: TxView, item: TableItemChange, facts: V1TableFacts): void {
  if (item.deleted || structKey(item.valueType ?? '') !== T.v1TokenData) return;
  const id = parseTokenDataId(item.key);
  if (id === null) return;
  const value = item.value;
  facts.tokens.push({
    tokenDataId: id.tokenDataId,
    tokenStandard: 'v1',
    collectionId: id.collectionId,
    creatorAddress: id.creator,
    collectionName: id.collection,
    tokenName: id.name,
    description: asString(field(value, 'description')),
    tokenUri: asString(field(value, 'uri')),
    properties: decodeV1PropertyMap(field(value, 'default_properties')),
    supply: asUintString(field(value, 'supply')),
    maximum: asUintString(field(value, 'maximum')),
    largestPropertyVersion: asUintString(field(value, 'largest_property_version')),
    isSoulbound: null,
    version: view.version,
  });
}

function readCollectionDataItem(
  view: TxView,
  item: TableItemChange,
  handle: TableHandleFact | null,
  creators: Map<string, string>,
  facts: V1TableFacts,
): void {
  if (item.deleted || structKey(item.valueType ?? '') !== T.v1CollectionData) return;
  if (handle !== null && handle.kind !== 'collections') return;
  const name = asString(field(item.value, 'name')) ?? asString(item.key);
  if (name === null) return;
  // The collection id needs the creator: the Collections resource owner, else a token of this
  // collection named elsewhere in the transaction. Without either the row cannot be keyed.
  const creator = handle?.owner ?? creators.get(name) ?? null;
  if (creator === null) return;
  facts.collections.push({
    collectionId: v1CollectionId(creator, name),
    tokenStandard: 'v1',
    creatorAddress: creator,
    collectionName: name,
    description: asString(field(item.value, 'description')),
    uri: asString(field(item.value, 'uri')),
    currentSupply: asUintString(field(item.value, 'supply')),
    maxSupply: asUintString(field(item.value, 'maximum')),
    totalMinted: null,
    version: view.version,
  });
}

function readPendingClaimItem(
  view: TxView,
  item: TableItemChange,
  handle: TableHandleFact | null,
  events: V1EventFacts,
  facts: V1TableFacts,
): void {
  if (handle !== null && handle.kind !== 'pending_claims') return;
  const token = parseTokenId(field(item.key, 'token_id'));
  const toAddress = addressOrNull(field(item.key, 'to_addr'));
  if (token === null || toAddress === null) return;
  const amount = item.deleted ? '0' : asUintString(field(item.value, 'amount'));
  // Offer, claim and cancel all emit an event naming the sender, so the fallback always exists on chain.
  const fromAddress =
    handle?.owner ??
    events.offerSenders.get(offerKey(token.tokenDataId, token.propertyVersion, toAddress)) ??
    null;
  if (amount === null || fromAddress === null) return;
  facts.pendingClaims.push({
    tokenDataId: token.tokenDataId,
    propertyVersion: token.propertyVersion,
    fromAddress,
    toAddress,
    collectionId: token.collectionId,
    amount,
    version: view.version,
  });
}

/**
 * Collection name → creator for every v1 token the transaction mentions (events and table keys).
 * A name claimed by two creators in one transaction is ambiguous and left out.
 */
function creatorsByCollectionName(view: TxView, events: V1EventFacts): Map<string, string> {
  const creators = new Map<string, string | null>();
  const note = (collection: string, creator: string): void => {
    const known = creators.get(collection);
    creators.set(collection, known === undefined || known === creator ? creator : null);
  };
  for (const token of events.createdTokens) {
    if (token.collectionName !== null && token.creatorAddress !== null)
      note(token.collectionName, token.creatorAddress);
  }
  for (const item of view.tableItems) {
    const id =
      parseTokenDataId(item.key) ?? parseTokenId(item.key) ?? parseTokenId(field(item.key, 'token_id'));
    if (id) note(id.collection, id.creator);
  }
  const unambiguous = new Map<string, string>();
  for (const [collection, creator] of creators) if (creator !== null) unambiguous.set(collection, creator);
  return unambiguous;
}
