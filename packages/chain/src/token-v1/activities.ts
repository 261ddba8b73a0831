import { DecodeError } from '../decode-error';
import type { CollectionFact, TokenActivityFact, TokenActivityKind, TokenDataFact } from '../domain';
import { eventRef } from '../event-ref';
import { asString, asUintString } from '../json';
import { structKey } from '../move-type';
import { decodeV1PropertyArrays } from '../property-map';
import type { TxEvent, TxView } from '../transaction-view';
import { v1CollectionId } from '../v1-ids';
import { addressOrNull, parseTokenDataId, parseTokenId, type V1TokenKey } from './move-ids';

/**
 * How one 0x3 event type becomes an activity. Each legacy handle event has a module-event twin
 * (after the module-event migration) with the same fields plus the account that emitted it.
 */
interface V1EventSpec {
  kind: TokenActivityKind;
  /** Field holding the token: a TokenDataId (create, mint) or a TokenId. */
  idField: 'id' | 'new_id' | 'token_id';
  idIsTokenDataId: boolean;
  /** Whether the acting account is the sender (`from`) or the receiver (`to`) of the tokens. */
  actor: 'from' | 'to';
  /** Module events name the account in this field; handle events use the event's guid account. */
  accountField: 'account' | 'creator';
  /** token_transfers events also name the counterparty. */
  counterparty?: boolean;
}

const spec = (types: string[], value: V1EventSpec): [string, V1EventSpec][] =>
  types.map((type) => [structKey(type), value]);

const V1_EVENTS = new Map<string, V1EventSpec>([
  ...spec(
    ['0x3::token::CreateTokenDataEvent', '0x3::token::TokenDataCreation', '0x3::token::CreateTokenData'],
    {
      kind: 'create',
      idField: 'id',
      idIsTokenDataId: true,
      actor: 'from',
      accountField: 'creator',
    },
  ),
  ...spec(['0x3::token::MintTokenEvent', '0x3::token::Mint', '0x3::token::MintToken'], {
    kind: 'mint',
    idField: 'id',
    idIsTokenDataId: true,
    actor: 'from',
    accountField: 'creator',
  }),
  ...spec(['0x3::token::DepositEvent', '0x3::token::TokenDeposit', '0x3::token::Deposit'], {
    kind: 'deposit',
    idField: 'id',
    idIsTokenDataId: false,
    actor: 'to',
    accountField: 'account',
  }),
  ...spec(['0x3::token::WithdrawEvent', '0x3::token::TokenWithdraw', '0x3::token::Withdraw'], {
    kind: 'withdraw',
    idField: 'id',
    idIsTokenDataId: false,
    actor: 'from',
    accountField: 'account',
  }),
  // `BurnToken` is the deprecated module-event twin (no account field): decoded all the same.
  ...spec(['0x3::token::BurnTokenEvent', '0x3::token::Burn', '0x3::token::BurnToken'], {
    kind: 'burn',
    idField: 'id',
    idIsTokenDataId: false,
    actor: 'from',
    accountField: 'account',
  }),
  ...spec(
    [
      '0x3::token::MutateTokenPropertyMapEvent',
      '0x3::token::MutatePropertyMap',
      '0x3::token::MutateTokenPropertyMap',
    ],
    {
      kind: 'mutate',
      idField: 'new_id',
      idIsTokenDataId: false,
      actor: 'from',
      accountField: 'account',
    },
  ),
  ...spec(['0x3::token_transfers::TokenOfferEvent', '0x3::token_transfers::Offer'], {
    kind: 'offer',
    idField: 'token_id',
    idIsTokenDataId: false,
    actor: 'from',
    accountField: 'account',
    counterparty: true,
  }),
  ...spec(['0x3::token_transfers::TokenCancelOfferEvent', '0x3::token_transfers::CancelOffer'], {
    kind: 'cancel_offer',
    idField: 'token_id',
    idIsTokenDataId: false,
    actor: 'from',
    accountField: 'account',
    counterparty: true,
  }),
  ...spec(['0x3::token_transfers::TokenClaimEvent', '0x3::token_transfers::Claim'], {
    kind: 'claim',
    idField: 'token_id',
    idIsTokenDataId: false,
    actor: 'from',
    accountField: 'account',
    counterparty: true,
  }),
]);

const CREATE_COLLECTION = new Set([
  structKey('0x3::token::CreateCollectionEvent'),
  structKey('0x3::token::CreateCollection'),
]);

export interface V1EventFacts {
  activities: TokenActivityFact[];
  /** Token data announced by create events; the write set's TokenData (absolute) wins when present. */
  createdTokens: TokenDataFact[];
  createdCollections: CollectionFact[];
  /** Which accounts the events name for each (token, property version): resolves pending-claim senders. */
  offerSenders: Map<string, string>;
}

export function offerKey(tokenDataId: string, propertyVersion: string, toAddress: string): string {
  return `${tokenDataId}/${propertyVersion}/${toAddress}`;
}

export function decodeV1Events(view: TxView): V1EventFacts {
  const facts: V1EventFacts = {
    activities: [],
    createdTokens: [],
    createdCollections: [],
    offerSenders: new Map(),
  };
  for (const event of view.events) {
    const key = event.struct?.key;
    if (key === undefined) continue;
    const eventSpec = V1_EVENTS.get(key);
    if (eventSpec) decodeActivity(view, event, eventSpec, facts);
    else if (CREATE_COLLECTION.has(key)) decodeCreateCollection(view, event, facts);
  }
  return facts;
}

function decodeActivity(view: TxView, event: TxEvent, eventSpec: V1EventSpec, facts: V1EventFacts): void {
  const fail = (what: string): never => {
    throw new DecodeError(`event ${event.index} (${event.type}) has no valid ${what}`, view.versionText);
  };
  const raw = event.data[eventSpec.idField];
  const token: V1TokenKey | null = eventSpec.idIsTokenDataId
    ? (() => {
        const data = parseTokenDataId(raw);
        return data ? { ...data, propertyVersion: '0' } : null;
      })()
    : parseTokenId(raw);
  if (token === null) fail(eventSpec.idField);
  const id = token as V1TokenKey;
  // Create events have no amount; mutations move no tokens.
  const amount =
    eventSpec.kind === 'create' || eventSpec.kind === 'mutate'
      ? '0'
      : (asUintString(event.data['amount']) ?? fail('amount'));
  const account = event.isModuleEvent
    ? (addressOrNull(event.data[eventSpec.accountField]) ??
      (eventSpec.accountField === 'creator' ? id.creator : null))
    : event.account;
  const counterparty = eventSpec.counterparty ? addressOrNull(event.data['to_address']) : null;
  facts.activities.push({
    ...eventRef(view, event.index),
    kind: eventSpec.kind,
    eventType: event.type,
    tokenDataId: id.tokenDataId,
    tokenStandard: 'v1',
    collectionId: id.collectionId,
    propertyVersion: id.propertyVersion,
    fromAddress: eventSpec.actor === 'from' ? account : null,
    toAddress: eventSpec.actor === 'to' ? account : counterparty,
    amount,
    names: { creatorAddress: id.creator, collectionName: id.collection, tokenName: id.name },
  });
  if (eventSpec.counterparty && account !== null && counterparty !== null) {
    facts.offerSenders.set(offerKey(id.tokenDataId, id.propertyVersion, counterparty), account);
  }
  if (eventSpec.kind === 'create') facts.createdTokens.push(createdToken(view, event, id));
}

function createdToken(view: TxView, event: TxEvent, id: V1TokenKey): TokenDataFact {
  const data = event.data;
  return {
    tokenDataId: id.tokenDataId,
    tokenStandard: 'v1',
    collectionId: id.collectionId,
    creatorAddress: id.creator,
    collectionName: id.collection,
    tokenName: id.name,
    description: asString(data['description']),
    tokenUri: asString(data['uri']),
    properties: decodeV1PropertyArrays(
      data['property_keys'],
      data['property_values'],
      data['property_types'],
    ),
    supply: null,
    maximum: asUintString(data['maximum']),
    largestPropertyVersion: '0',
    isSoulbound: null,
    version: view.version,
  };
}

function decodeCreateCollection(view: TxView, event: TxEvent, facts: V1EventFacts): void {
  const creator = addressOrNull(event.data['creator']) ?? (event.isModuleEvent ? null : event.account);
  const name = asString(event.data['collection_name']);
  if (creator === null || name === null) {
    throw new DecodeError(
      `event ${event.index} (${event.type}) has no creator/collection_name`,
      view.versionText,
    );
  }
  facts.createdCollections.push({
    collectionId: v1CollectionId(creator, name),
    tokenStandard: 'v1',
    creatorAddress: creator,
    collectionName: name,
    description: asString(event.data['description']),
    uri: asString(event.data['uri']),
    currentSupply: '0',
    maxSupply: asUintString(event.data['maximum']),
    totalMinted: null,
    version: view.version,
  });
}
