/** Narrowing helpers for JSON values that arrive as `unknown` (event data, resources, table items). */

export type JsonRecord = Record<string, unknown>;

export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function asRecord(value: unknown): JsonRecord | null {
  return isRecord(value) ? value : null;
}

export function asString(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/** Move u64/u128 values travel as decimal strings; numbers are accepted for hand-written inputs. */
export function asUintString(value: unknown): string | null {
  if (typeof value === 'string' && /^\d+$/.test(value)) return value;
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return String(value);
  return null;
}

export function asArray(value: unknown): unknown[] | null {
  return Array.isArray(value) ? value : null;
}

export function field(record: unknown, key: string): unknown {
  return isRecord(record) ? record[key] : undefined;
}

/** `{inner: "0x..."}` (an `Object<T>`) or a bare address string. */
export function objectInner(value: unknown): string | null {
  if (typeof value === 'string') return value;
  return asString(field(value, 'inner'));
}
