import { isAddress, normalizeAddress } from './address';

/**
 * A Move struct type string split into its base and top-level generic arguments. Type strings
 * spell the address short (`0x1::object::ObjectCore`) or with leading zeros stripped, so the base
 * key uses the long address: two spellings of one type compare equal.
 */
export interface StructType {
  /** `0x<64 hex>::module::Name`, no generics. */
  key: string;
  address: string;
  module: string;
  name: string;
  typeArgs: string[];
}

export function parseStructType(type: string): StructType | null {
  const open = type.indexOf('<');
  const base = open === -1 ? type : type.slice(0, open);
  const parts = base.split('::');
  if (parts.length !== 3) return null;
  const [address, module, name] = parts as [string, string, string];
  if (!isAddress(address) || module === '' || name === '') return null;
  const long = normalizeAddress(address);
  const typeArgs = open === -1 ? [] : splitTypeArgs(type.slice(open + 1, type.lastIndexOf('>')));
  return { key: `${long}::${module}::${name}`, address: long, module, name, typeArgs };
}

/** The comparison key of a struct type, or the input unchanged when it is not a struct type. */
export function structKey(type: string): string {
  return parseStructType(type)?.key ?? type;
}

/** The top-level type arguments of `A, B<C, D>`, trimmed: commas inside angle brackets do not split. */
export function splitTypeArgs(inner: string): string[] {
  const args: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < inner.length; i++) {
    const ch = inner[i];
    if (ch === '<') depth++;
    else if (ch === '>') depth--;
    else if (ch === ',' && depth === 0) {
      args.push(inner.slice(start, i).trim());
      start = i + 1;
    }
  }
  const last = inner.slice(start).trim();
  if (last !== '') args.push(last);
  return args;
}
