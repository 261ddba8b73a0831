import { isAddress, normalizeAddress } from '@mdq/chain/address';
import { ConfigError } from './config-error';

export type Env = Readonly<Record<string, string | undefined>>;

/** Parses a variable only when it is set to something other than blank. */
export function optional<T>(
  env: Env,
  name: string,
  parse: (value: string, name: string) => T,
): T | undefined {
  const raw = env[name]?.trim();
  return raw ? parse(raw, name) : undefined;
}

export function readUrl(value: string, name: string, protocols: readonly string[]): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`${name} is not a valid URL: ${redact(value)}`);
  }
  if (!protocols.includes(url.protocol)) {
    throw new ConfigError(`${name} must use ${protocols.join(' or ')} (got ${url.protocol})`);
  }
  return value;
}

export function readInt(env: Env, name: string, fallback: number, min: number, max: number): number {
  return (
    optional(env, name, (v) => {
      const n = Number(v);
      if (!/^-?\d+$/.test(v) || n < min || n > max) {
        throw new ConfigError(`${name} must be an integer from ${min} to ${max} (got "${v}")`);
      }
      return n;
    }) ?? fallback
  );
}

export function readEnum<const T extends readonly string[]>(
  env: Env,
  name: string,
  allowed: T,
  fallback: T[number],
): T[number] {
  return (
    optional(env, name, (v) => {
      const found = allowed.find((a) => a === v);
      if (found === undefined)
        throw new ConfigError(`${name} must be one of ${allowed.join(', ')} (got "${v}")`);
      return found;
    }) ?? fallback
  );
}

export function readAddress(env: Env, name: string, fallback: string): string {
  return (
    optional(env, name, (v) => {
      if (!isAddress(v)) throw new ConfigError(`${name} must be an Aptos address (got "${v}")`);
      return normalizeAddress(v);
    }) ?? fallback
  );
}

export function readList<T>(
  env: Env,
  name: string,
  fallback: readonly T[],
  parse: (value: string, name: string) => T,
): T[] {
  const raw = optional(env, name, (v) =>
    v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );
  return raw ? raw.map((item) => parse(item, name)) : [...fallback];
}

/** Connection strings carry passwords; never echo one back in an error. */
function redact(value: string): string {
  return value.replace(/\/\/([^:/@]+):[^@]*@/, '//$1:***@');
}
