/**
 * Hand-built REST user transactions for tests (`@mdq/chain/testing`): the fields the decoder and the
 * indexer read, in the fullnode's shape. One builder for every package's tests.
 */
export interface EventInput {
  type: string;
  data: Record<string, unknown>;
  /** Handle-event account; module events (the default) use the dummy guid 0x0 / 0. */
  account?: string;
  creationNumber?: string;
}

export function moduleEvent(type: string, data: Record<string, unknown>): EventInput {
  return { type, data };
}

/** The fields that place a transaction at `version`: its hash, sequence number and time follow from it. */
export function atVersion(version: number, timeBaseUs = 1_740_000_000_000_000): Record<string, string> {
  return {
    version: String(version),
    hash: `0x${version.toString(16).padStart(64, '0')}`,
    sequence_number: String(version),
    timestamp: String(timeBaseUs + version),
  };
}

/** An entry-function payload calling `fn` (the decoder reads the function name only). */
export function entryFunction(fn: string): Record<string, unknown> {
  return { type: 'entry_function_payload', function: fn, type_arguments: [], arguments: [] };
}

export function userTransaction(
  events: EventInput[],
  changes: Record<string, unknown>[] = [],
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    type: 'user_transaction',
    version: '1000',
    hash: `0x${'ab'.repeat(32)}`,
    success: true,
    vm_status: 'Executed successfully',
    sender: '0xcafe',
    sequence_number: '7',
    timestamp: '1740000000000000',
    payload: entryFunction('0x1::test::run'),
    events: events.map((event) => ({
      guid: { creation_number: event.creationNumber ?? '0', account_address: event.account ?? '0x0' },
      sequence_number: '0',
      type: event.type,
      data: event.data,
    })),
    changes,
    ...overrides,
  };
}

export function writeResource(
  address: string,
  type: string,
  data: Record<string, unknown>,
): Record<string, unknown> {
  return { type: 'write_resource', address, state_key_hash: '0x00', data: { type, data } };
}
