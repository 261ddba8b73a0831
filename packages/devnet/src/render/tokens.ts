import type { MintedToken, Plan } from '../sim/plan';
import type { SimState } from '../sim/state';
import type { TxBuilder } from './builder';
import type { Entities } from './entities';
import type { MoveJson } from './rest-types';
import {
  emitDeposit,
  emitWithdraw,
  tokenDataIdJson,
  writeCollectionData,
  writeCollectionsResource,
  writeTokenData,
  writeTokenRow,
  writeTokenStore,
} from './token-v1';
import {
  emitMint,
  emitTransfer,
  OBJ_GUID,
  writeCollectionCreation,
  writeSupply,
  writeTokenGroup,
} from './token-v2';

export interface Call {
  function: string;
  typeArguments: string[];
  arguments: MoveJson[];
}

type PlanOf<K extends Plan['kind']> = Extract<Plan, { kind: K }>;

export function renderCreateCollection(
  b: TxBuilder,
  e: Entities,
  s: SimState,
  p: PlanOf<'create_collection'>,
): Call {
  const spec = e.collection(p.collection);
  if (spec.standard === 'v2') {
    writeCollectionCreation(b, e, s, p.collection);
    return {
      function: '0x4::aptos_token::create_collection',
      typeArguments: [],
      arguments: [
        spec.description,
        String(spec.maxSupply),
        spec.name,
        spec.uri,
        false,
        false,
        true,
        true,
        true,
        true,
        true,
        true,
        true,
        '0',
        '100',
      ],
    };
  }
  const creator = e.account(spec.creator);
  b.handleEvent(creator, '8', p.v1CollectionSeq, '0x3::token::CreateCollectionEvent', {
    collection_name: spec.name,
    creator,
    description: spec.description,
    maximum: String(spec.maxSupply),
    uri: spec.uri,
  });
  writeCollectionsResource(b, e, s, spec.creator);
  writeCollectionData(b, e, s, p.collection);
  return {
    function: '0x3::token::create_collection_script',
    typeArguments: [],
    arguments: [spec.name, spec.description, spec.uri, String(spec.maxSupply), [false, false, false]],
  };
}

/** Events and writes of one minted v1 token: create token data, mint to creator, hand to receiver. */
function mintV1(b: TxBuilder, e: Entities, s: SimState, c: number, m: MintedToken): void {
  const spec = e.collection(c);
  const creator = e.account(spec.creator);
  const name = e.tokenName(c, m.serial);
  const props = e.properties(s, m.token);
  b.handleEvent(creator, '9', m.tokenDataSeq, '0x3::token::CreateTokenDataEvent', {
    description: `${name}, minted on the mdq devnet.`,
    id: tokenDataIdJson(e, c, m.serial),
    maximum: '1',
    mutability_config: { description: false, maximum: false, properties: false, royalty: false, uri: false },
    name,
    property_keys: props.map(([k]) => k),
    property_types: props.map(() => '0x1::string::String'),
    property_values: props.map(([, , hex]) => `0x${hex}`),
    royalty_payee_address: creator,
    royalty_points_denominator: '100',
    royalty_points_numerator: String(spec.royaltyPercent),
    uri: e.tokenUri(c, m.serial),
  });
  b.handleEvent(creator, '10', m.tokenDataSeq, '0x3::token::MintTokenEvent', {
    amount: '1',
    id: tokenDataIdJson(e, c, m.serial),
  });
  emitDeposit(b, e, s, m.token, spec.creator, m.creatorDepositSeq);
  emitWithdraw(b, e, s, m.token, spec.creator, m.creatorWithdrawSeq);
  emitDeposit(b, e, s, m.token, m.to, m.receiverDepositSeq);
  writeTokenData(b, e, s, m.token, 1);
  writeTokenRow(b, e, s, m.token, m.to, true);
}

export function renderMint(b: TxBuilder, e: Entities, s: SimState, p: PlanOf<'mint'>): Call {
  const spec = e.collection(p.collection);
  const receivers = p.tokens.map((m) => e.account(m.to));
  if (spec.standard === 'v1') {
    for (const m of p.tokens) mintV1(b, e, s, p.collection, m);
    writeCollectionsResource(b, e, s, spec.creator);
    writeCollectionData(b, e, s, p.collection);
    writeTokenStore(b, e, s, spec.creator);
    for (const to of new Set(p.tokens.map((m) => m.to)))
      if (to !== spec.creator) writeTokenStore(b, e, s, to);
    return {
      function: `${e.mkt}::launchpad::mint_tokenv1`,
      typeArguments: [],
      arguments: [e.account(spec.creator), spec.name, receivers],
    };
  }
  for (const m of p.tokens) {
    emitMint(b, e, p.collection, m.token, m.serial, m.mintSeq, e.account(m.to));
    writeTokenGroup(b, e, s, m.token, e.account(m.to), true);
  }
  writeSupply(b, e, s, p.collection);
  return {
    function: `${e.mkt}::launchpad::mint_tokenv2`,
    typeArguments: [],
    arguments: [{ inner: e.collectionAddress(p.collection) }, receivers],
  };
}

export function renderTransfer(b: TxBuilder, e: Entities, s: SimState, p: PlanOf<'transfer'>): Call {
  const c = s.tokColl[p.token] ?? 0;
  const spec = e.collection(c);
  if (spec.standard === 'v1') {
    emitWithdraw(b, e, s, p.token, p.from, p.v1Seqs[0]);
    emitDeposit(b, e, s, p.token, p.to, p.v1Seqs[1]);
    writeTokenStore(b, e, s, p.from);
    writeTokenStore(b, e, s, p.to);
    writeTokenRow(b, e, s, p.token, p.from, false);
    writeTokenRow(b, e, s, p.token, p.to, true);
    const name = e.tokenName(c, s.tokSerial[p.token] ?? 0);
    return {
      function: '0x3::token::transfer_with_opt_in',
      typeArguments: [],
      arguments: [e.account(spec.creator), spec.name, name, '0', e.account(p.to), '1'],
    };
  }
  emitTransfer(b, e, p.token, p.transferSeq, e.account(p.from), e.account(p.to), spec.era === 'modern');
  writeTokenGroup(b, e, s, p.token, e.account(p.to), false);
  return {
    function: '0x1::object::transfer',
    typeArguments: ['0x4::token::Token'],
    arguments: [{ inner: e.tokenAddress(p.token) }, e.account(p.to)],
  };
}

export function renderBurn(b: TxBuilder, e: Entities, s: SimState, p: PlanOf<'burn'>): Call {
  const c = s.tokColl[p.token] ?? 0;
  const spec = e.collection(c);
  const serial = s.tokSerial[p.token] ?? 0;
  if (spec.standard === 'v1') {
    emitWithdraw(b, e, s, p.token, p.owner, p.v1Seqs[0]);
    b.handleEvent(e.account(p.owner), '6', p.v1Seqs[1], '0x3::token::BurnTokenEvent', {
      amount: '1',
      id: { property_version: '0', token_data_id: tokenDataIdJson(e, c, serial) },
    });
    writeTokenStore(b, e, s, p.owner);
    writeTokenRow(b, e, s, p.token, p.owner, false);
    writeTokenData(b, e, s, p.token, 0);
    writeCollectionData(b, e, s, c);
    return {
      function: '0x3::token::burn',
      typeArguments: [],
      arguments: [e.account(spec.creator), spec.name, e.tokenName(c, serial), '0', '1'],
    };
  }
  const coll = e.collectionAddress(c);
  const tok = e.tokenAddress(p.token);
  if (spec.era === 'modern') {
    b.moduleEvent('0x4::collection::Burn', {
      collection: coll,
      index: String(serial),
      previous_owner: e.account(p.owner),
      token: tok,
    });
  } else {
    b.handleEvent(coll, String(OBJ_GUID + 1), p.burnSeq, '0x4::collection::BurnEvent', {
      index: String(serial),
      token: tok,
    });
  }
  writeSupply(b, e, s, c);
  b.deleteResource(tok, '0x1::object::ObjectGroup');
  return {
    function: '0x4::aptos_token::burn',
    typeArguments: ['0x4::token::Token'],
    arguments: [{ inner: tok }],
  };
}
