import { ConfigError } from '@mdq/config';
import { EmbeddedStartError } from '@mdq/embedded-postgres';
// The error classes alone: the indexer's package entry loads the chain SDK and the gRPC codecs (2 s
// of every `mdq` command's start, `--help` and a configuration error included).
import { FatalSourceError } from '@mdq/indexer/source-errors';

/** A problem the operator can fix: printed as one line, exit code 2, no stack trace. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** Problems the operator fixes (configuration, a key, the network, the start version): exit code 2. */
export function exitCodeFor(error: unknown): number {
  return error instanceof ConfigError || error instanceof UsageError || error instanceof FatalSourceError
    ? 2
    : 1;
}

export function describeFailure(error: unknown): string {
  if (
    error instanceof ConfigError ||
    error instanceof UsageError ||
    error instanceof EmbeddedStartError ||
    error instanceof FatalSourceError
  )
    return `mdq: ${error.message}`;
  if (error instanceof Error) return `mdq: ${error.name}: ${error.message}`;
  return `mdq: ${String(error)}`;
}
