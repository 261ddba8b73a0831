/**
 * How a chain source says a failure is not worth retrying. The follow loop retries everything else
 * (outages, 5xx, 429) for as long as the run lasts; one of these stops the run, and the CLI prints
 * its message as the one line the operator reads, so each message names the fix.
 */
export class FatalSourceError extends Error {
  override name = 'FatalSourceError';
}

/** The source serves another network than the one configured (APTOS_NETWORK). */
export class ChainIdMismatchError extends FatalSourceError {
  override name = 'ChainIdMismatchError';
}

/** The source asked to be left alone for a while (429 with `Retry-After`): the retry waits that long. */
export class RateLimitedError extends Error {
  override name = 'RateLimitedError';
  constructor(
    message: string,
    readonly retryAfterMs: number,
  ) {
    super(message);
  }
}

/** `Retry-After` as seconds or an HTTP date → milliseconds to wait (null when absent or unreadable). */
export function parseRetryAfter(value: unknown, now = Date.now()): number | null {
  const text = Array.isArray(value) ? value[0] : value;
  if (typeof text !== 'string' || text.trim() === '') return null;
  if (/^\d+$/.test(text.trim())) return Number(text.trim()) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** The one check both sources make on the tip: the node must be the configured network. */
export function checkChainId(
  actual: number | undefined,
  expected: number | undefined,
  what: string,
  /** Who expects `expected`: the configured network, or (on local networks) the fullnode. */
  expectedBy = 'APTOS_NETWORK expects',
): void {
  if (actual === undefined || expected === undefined || actual === expected) return;
  throw new ChainIdMismatchError(
    `${what} serves chain id ${actual}, but ${expectedBy} chain id ${expected}: point it at the configured network, or set APTOS_NETWORK to match`,
  );
}
