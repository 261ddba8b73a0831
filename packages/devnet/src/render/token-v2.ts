import type { SimState } from '../sim/state';
import type { TxBuilder } from './builder';
import type { Entities } from './entities';
import type { MoveJson } from './rest-types';

// Creation numbers of object-owned handles (object::create_guid starts at 0x4000000000000).
export const OBJ_GUID = 1125899906842624;
const guid = (addr: string, n: number, counter: number): MoveJson => ({
  counter: String(counter),
  guid: { id: { addr, creation_num: String(OBJ_GUID + n) } },
});

export function objectCore(
  owner: string,
  self: string,
  ungated: boolean,
  guidNum: number,
  transfers: number,
): MoveJson {
  return {
    allow_ungated_transfer: ungated,
    guid_creation_num: String(OBJ_GUID + guidNum),
    owner,
    transfer_events: guid(self, 0, transfers),
  };
}

/**
 * Writes the token's resource group after a change: ObjectCore, Token, TokenIdentifiers (modern
 * collections keep the name there); PropertyMap and AptosToken on mint only. (Mainnet rewrites the
 * whole group on every transfer; the properties never change here, so repeating them would only
 * triple the bytes of every trade.)
 */
export function writeTokenGroup(
  b: TxBuilder,
  e: Entities,
  s: SimState,
  token: number,
  owner: string,
  minted: boolean,
): void {
  const addr = e.tokenAddress(token);
  const c = s.tokColl[token] ?? 0;
  const spec = e.collection(c);
  const serial = s.tokSerial[token] ?? 0;
  const name = e.tokenName(c, serial);
  const modern = spec.era === 'modern';
  b.writeResource(
    addr,
    '0x1::object::ObjectCore',
    objectCore(owner, addr, true, 2, s.tokTransfers[token] ?? 0),
  );
  if (minted) {
    b.writeResource(addr, '0x4::aptos_token::AptosToken', {
      burn_ref: { vec: [{ inner: { vec: [{ self: addr }] }, self: { vec: [] } }] },
      mutator_ref: { vec: [{ self: addr }] },
      property_mutator_ref: { self: addr },
      transfer_ref: { vec: [] },
    });
  }
  b.writeResource(addr, '0x4::property_map::PropertyMap', {
    inner: {
      data: e.properties(s, token).map(([key, , hex]) => ({ key, value: { type: 9, value: `0x${hex}` } })),
    },
  });
  b.writeResource(addr, '0x4::token::Token', {
    collection: { inner: e.collectionAddress(c) },
    description: `${name}, minted on the mdq devnet.`,
    index: modern ? '0' : String(serial),
    mutation_events: guid(addr, 1, 0),
    name: modern ? '' : name,
    uri: e.tokenUri(c, serial),
  });
  if (modern) {
    b.writeResource(addr, '0x4::token::TokenIdentifiers', {
      index: { value: String(serial) },
      name: { padding: '0x', value: name },
    });
  }
}

/** The collection's supply resource after this transaction. */
export function writeSupply(b: TxBuilder, e: Entities, s: SimState, c: number): void {
  const spec = e.collection(c);
  const addr = e.collectionAddress(c);
  const supply = String(s.collSupply[c] ?? 0);
  const minted = String(s.collMinted[c] ?? 0);
  if (spec.supplyKind === 'concurrent') {
    b.writeResource(addr, '0x4::collection::ConcurrentSupply', {
      current_supply: { max_value: String(spec.maxSupply || '18446744073709551615'), value: supply },
      total_minted: { max_value: '18446744073709551615', value: minted },
    });
    return;
  }
  const burns = guid(addr, 1, s.collBurnEvents[c] ?? 0);
  const mints = guid(addr, 2, s.collMintEvents[c] ?? 0);
  if (spec.supplyKind === 'fixed') {
    b.writeResource(addr, '0x4::collection::FixedSupply', {
      burn_events: burns,
      current_supply: supply,
      max_supply: String(spec.maxSupply),
      mint_events: mints,
      total_minted: minted,
    });
  } else {
    b.writeResource(addr, '0x4::collection::UnlimitedSupply', {
      burn_events: burns,
      current_supply: supply,
      mint_events: mints,
      total_minted: minted,
    });
  }
}

export function writeCollectionCreation(b: TxBuilder, e: Entities, s: SimState, c: number): void {
  const spec = e.collection(c);
  const addr = e.collectionAddress(c);
  const creator = e.account(spec.creator);
  b.writeResource(addr, '0x1::object::ObjectCore', objectCore(creator, addr, false, 4, 0));
  b.writeResource(addr, '0x4::aptos_token::AptosCollection', {
    mutable_description: false,
    mutable_token_description: true,
    mutable_token_name: true,
    mutable_token_properties: true,
    mutable_token_uri: true,
    mutable_uri: false,
    mutator_ref: { vec: [] },
    royalty_mutator_ref: { vec: [] },
    tokens_burnable_by_creator: true,
    tokens_freezable_by_creator: false,
  });
  b.writeResource(addr, '0x4::collection::Collection', {
    creator,
    description: spec.description,
    mutation_events: guid(addr, 3, 0),
    name: spec.name,
    uri: spec.uri,
  });
  writeSupply(b, e, s, c);
  b.writeResource(addr, '0x4::royalty::Royalty', {
    denominator: '100',
    numerator: String(spec.royaltyPercent),
    payee_address: creator,
  });
}

/** Mint (handle MintEvent for legacy supplies, module Mint for concurrent) plus the transfer to the receiver. */
export function emitMint(
  b: TxBuilder,
  e: Entities,
  c: number,
  token: number,
  serial: number,
  mintSeq: number,
  to: string,
): void {
  const spec = e.collection(c);
  const coll = e.collectionAddress(c);
  const tok = e.tokenAddress(token);
  const creator = e.account(spec.creator);
  if (spec.era === 'modern') {
    b.moduleEvent('0x4::collection::Mint', {
      collection: coll,
      index: { value: String(serial) },
      token: tok,
    });
    b.moduleEvent('0x1::object::Transfer', { from: creator, object: tok, to });
  } else {
    b.handleEvent(coll, String(OBJ_GUID + 2), mintSeq, '0x4::collection::MintEvent', {
      index: String(serial),
      token: tok,
    });
    b.handleEvent(tok, String(OBJ_GUID), 0, '0x1::object::TransferEvent', { from: creator, object: tok, to });
  }
}

export function emitTransfer(
  b: TxBuilder,
  e: Entities,
  token: number,
  seq: number,
  from: string,
  to: string,
  modern: boolean,
): void {
  const tok = e.tokenAddress(token);
  if (modern) b.moduleEvent('0x1::object::Transfer', { from, object: tok, to });
  else b.handleEvent(tok, String(OBJ_GUID), seq, '0x1::object::TransferEvent', { from, object: tok, to });
}
