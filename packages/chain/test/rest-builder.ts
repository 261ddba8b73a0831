/** Hand-built REST user transactions for unit tests (only the fields the decoder reads). */
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
    payload: {
      type: 'entry_function_payload',
      function: '0x1::test::run',
      type_arguments: [],
      arguments: [],
    },
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
