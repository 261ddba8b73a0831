/**
 * A REST Move type string (`vector<u8>`, `0x1::coin::CoinStore<0x1::aptos_coin::AptosCoin>`,
 * `&mut signer`, `T0`) as a proto3-JSON `MoveType`: the inverse of @mdq/chain's renderMoveType,
 * which the round-trip test checks on every generated and recorded transaction.
 */
import { splitTypeArgs } from '../move-type';

export type MoveTypeJson = Record<string, unknown>;

const PRIMITIVES: Record<string, string> = {
  bool: 'MOVE_TYPES_BOOL',
  u8: 'MOVE_TYPES_U8',
  u16: 'MOVE_TYPES_U16',
  u32: 'MOVE_TYPES_U32',
  u64: 'MOVE_TYPES_U64',
  u128: 'MOVE_TYPES_U128',
  u256: 'MOVE_TYPES_U256',
  address: 'MOVE_TYPES_ADDRESS',
  signer: 'MOVE_TYPES_SIGNER',
};

export function moveTypeJson(text: string): MoveTypeJson {
  const type = text.trim();
  const primitive = PRIMITIVES[type];
  if (primitive !== undefined) return { type: primitive };
  if (type.startsWith('&mut ')) return reference(true, type.slice(5));
  if (type.startsWith('&')) return reference(false, type.slice(1));
  if (/^T\d+$/.test(type)) {
    return { type: 'MOVE_TYPES_GENERIC_TYPE_PARAM', genericTypeParamIndex: Number(type.slice(1)) };
  }
  if (type.startsWith('vector<') && type.endsWith('>')) {
    return { type: 'MOVE_TYPES_VECTOR', vector: moveTypeJson(type.slice(7, -1)) };
  }
  const open = type.indexOf('<');
  const base = (open === -1 ? type : type.slice(0, open)).split('::');
  if (base.length !== 3) return { type: 'MOVE_TYPES_UNPARSABLE', unparsable: type };
  const [address, module, name] = base as [string, string, string];
  const generics = open === -1 ? [] : splitTypeArgs(type.slice(open + 1, type.lastIndexOf('>')));
  return {
    type: 'MOVE_TYPES_STRUCT',
    struct: { address, module, name, genericTypeParams: generics.map(moveTypeJson) },
  };
}

function reference(mutable: boolean, to: string): MoveTypeJson {
  return { type: 'MOVE_TYPES_REFERENCE', reference: { mutable, to: moveTypeJson(to) } };
}
