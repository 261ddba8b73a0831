import type { SimState } from '../sim/state';
import { bcs } from './bcs';
import type { TxBuilder } from './builder';
import type { Entities } from './entities';
import type { MoveJson } from './rest-types';

const STRING = '0x1::string::String';
const TOKEN_ID = '0x3::token::TokenId';
const TOKEN_DATA_ID = '0x3::token::TokenDataId';

const handle = (addr: string, n: number, counter: number): MoveJson => ({
  counter: String(counter),
  guid: { id: { addr, creation_num: String(n) } },
});

export function tokenDataIdJson(e: Entities, c: number, serial: number): MoveJson {
  const spec = e.collection(c);
  return { collection: spec.name, creator: e.account(spec.creator), name: e.tokenName(c, serial) };
}

export function tokenIdJson(e: Entities, c: number, serial: number): MoveJson {
  return { property_version: '0', token_data_id: tokenDataIdJson(e, c, serial) };
}

function tokenIdHex(e: Entities, c: number, serial: number): string {
  const spec = e.collection(c);
  return bcs.tokenId(e.accountHex(spec.creator), spec.name, e.tokenName(c, serial), 0);
}

/** The TokenStore resource of `account` with its counters after this transaction. */
export function writeTokenStore(b: TxBuilder, e: Entities, s: SimState, account: number): void {
  const addr = e.account(account);
  b.writeResource(addr, '0x3::token::TokenStore', {
    burn_events: handle(addr, 6, s.v1Burn[account] ?? 0),
    deposit_events: handle(addr, 4, s.v1Deposit[account] ?? 0),
    direct_transfer: false,
    mutate_token_property_events: handle(addr, 7, 0),
    tokens: { handle: e.tableHandle(account, 0) },
    withdraw_events: handle(addr, 5, s.v1Withdraw[account] ?? 0),
  });
}

export function writeCollectionsResource(b: TxBuilder, e: Entities, s: SimState, creator: number): void {
  const addr = e.account(creator);
  b.writeResource(addr, '0x3::token::Collections', {
    collection_data: { handle: e.tableHandle(creator, 1) },
    create_collection_events: handle(addr, 8, s.v1CollectionEvents[creator] ?? 0),
    create_token_data_events: handle(addr, 9, s.v1TokenDataEvents[creator] ?? 0),
    mint_token_events: handle(addr, 10, s.v1MintEvents[creator] ?? 0),
    token_data: { handle: e.tableHandle(creator, 2) },
  });
}

export function writeCollectionData(b: TxBuilder, e: Entities, s: SimState, c: number): void {
  const spec = e.collection(c);
  const supply = s.collSupply[c] ?? 0;
  const value: MoveJson = {
    description: spec.description,
    maximum: String(spec.maxSupply),
    mutability_config: { description: false, maximum: false, uri: false },
    name: spec.name,
    supply: String(supply),
    uri: spec.uri,
  };
  const valueHex =
    bcs.string(spec.description) +
    bcs.string(spec.name) +
    bcs.string(spec.uri) +
    bcs.u64(supply) +
    bcs.u64(spec.maxSupply) +
    '000000';
  b.writeTableItem(
    e.tableHandle(spec.creator, 1),
    bcs.string(spec.name),
    spec.name,
    STRING,
    valueHex,
    value,
    '0x3::token::CollectionData',
  );
}

/** TokenData table item (supply 1 while the token exists, 0 after its burn). */
export function writeTokenData(b: TxBuilder, e: Entities, s: SimState, token: number, supply: number): void {
  const c = s.tokColl[token] ?? 0;
  const serial = s.tokSerial[token] ?? 0;
  const spec = e.collection(c);
  const name = e.tokenName(c, serial);
  const props = e.properties(s, token);
  const creatorHex = e.accountHex(spec.creator);
  const creator = e.account(spec.creator);
  const uri = e.tokenUri(c, serial);
  const description = `${name}, minted on the mdq devnet.`;
  const value: MoveJson = {
    default_properties: {
      map: { data: props.map(([key, , hex]) => ({ key, value: { type: STRING, value: `0x${hex}` } })) },
    },
    description,
    largest_property_version: '0',
    maximum: '1',
    mutability_config: { description: false, maximum: false, properties: false, royalty: false, uri: false },
    name,
    royalty: {
      payee_address: creator,
      royalty_points_denominator: '100',
      royalty_points_numerator: String(spec.royaltyPercent),
    },
    supply: String(supply),
    uri,
  };
  const propsHex = props
    .map(([key, , hex]) => bcs.string(key) + bcs.length(hex.length / 2) + hex + bcs.string(STRING))
    .join('');
  const valueHex =
    bcs.u64(1) +
    bcs.u64(0) +
    bcs.u64(supply) +
    bcs.string(uri) +
    creatorHex +
    bcs.u64(100) +
    bcs.u64(spec.royaltyPercent) +
    bcs.string(name) +
    bcs.string(description) +
    bcs.length(props.length) +
    propsHex +
    '0000000000';
  const keyHex = bcs.tokenDataId(creatorHex, spec.name, name);
  b.writeTableItem(
    e.tableHandle(spec.creator, 2),
    keyHex,
    tokenDataIdJson(e, c, serial),
    TOKEN_DATA_ID,
    valueHex,
    value,
    '0x3::token::TokenData',
  );
}

/** The owner's TokenStore row for the token: written with amount 1 on deposit, deleted on withdraw. */
export function writeTokenRow(
  b: TxBuilder,
  e: Entities,
  s: SimState,
  token: number,
  owner: number,
  present: boolean,
): void {
  const c = s.tokColl[token] ?? 0;
  const serial = s.tokSerial[token] ?? 0;
  const keyHex = tokenIdHex(e, c, serial);
  const key = tokenIdJson(e, c, serial);
  const handleAddr = e.tableHandle(owner, 0);
  if (!present) {
    b.deleteTableItem(handleAddr, keyHex, key, TOKEN_ID);
    return;
  }
  const value: MoveJson = { amount: '1', id: key, token_properties: { map: { data: [] } } };
  b.writeTableItem(handleAddr, keyHex, key, TOKEN_ID, `${bcs.u64(1)}${keyHex}00`, value, '0x3::token::Token');
}

export function emitDeposit(
  b: TxBuilder,
  e: Entities,
  s: SimState,
  token: number,
  account: number,
  seq: number,
): void {
  const id = tokenIdJson(e, s.tokColl[token] ?? 0, s.tokSerial[token] ?? 0);
  b.handleEvent(e.account(account), '4', seq, '0x3::token::DepositEvent', { amount: '1', id });
}

export function emitWithdraw(
  b: TxBuilder,
  e: Entities,
  s: SimState,
  token: number,
  account: number,
  seq: number,
): void {
  const id = tokenIdJson(e, s.tokColl[token] ?? 0, s.tokSerial[token] ?? 0);
  b.handleEvent(e.account(account), '5', seq, '0x3::token::WithdrawEvent', { amount: '1', id });
}
