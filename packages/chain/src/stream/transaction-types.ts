/**
 * The transaction types mdq knows, one row each: the proto enum name, the number the wire carries,
 * the fullnode REST `type` string, and the proto field holding the type's body. Every converter,
 * both sources' unknown-type check and the devnet's server read this table, so a type is added here
 * once. `scheduled_transaction` is not in ts-sdk 7.3 yet: its REST name follows the proto's field.
 */
export interface TransactionKind {
  proto: string;
  number: number;
  rest: string;
  body: string;
}

export const TRANSACTION_KINDS: readonly TransactionKind[] = [
  { proto: 'TRANSACTION_TYPE_GENESIS', number: 1, rest: 'genesis_transaction', body: 'genesis' },
  {
    proto: 'TRANSACTION_TYPE_BLOCK_METADATA',
    number: 2,
    rest: 'block_metadata_transaction',
    body: 'blockMetadata',
  },
  {
    proto: 'TRANSACTION_TYPE_STATE_CHECKPOINT',
    number: 3,
    rest: 'state_checkpoint_transaction',
    body: 'stateCheckpoint',
  },
  { proto: 'TRANSACTION_TYPE_USER', number: 4, rest: 'user_transaction', body: 'user' },
  { proto: 'TRANSACTION_TYPE_VALIDATOR', number: 20, rest: 'validator_transaction', body: 'validator' },
  {
    proto: 'TRANSACTION_TYPE_BLOCK_EPILOGUE',
    number: 21,
    rest: 'block_epilogue_transaction',
    body: 'blockEpilogue',
  },
  {
    proto: 'TRANSACTION_TYPE_SCHEDULED',
    number: 22,
    rest: 'scheduled_transaction',
    body: 'scheduledTransaction',
  },
];

/**
 * A type this build does not know becomes this REST type, carrying the proto's number in
 * `proto_type` (so restToProto gives the same number back): an opaque non-user transaction that
 * keeps its version, time and outcome, so the chain stays contiguous and nothing stalls.
 */
export const UNKNOWN_REST_TYPE = 'unknown_transaction';

const REST_TYPES = new Set(TRANSACTION_KINDS.map((kind) => kind.rest));

/** A committed transaction's REST `type` that this build cannot convert or decode in full. */
export function isUnknownRestType(type: unknown): boolean {
  return typeof type !== 'string' || (!REST_TYPES.has(type) && type !== 'pending_transaction');
}

export function kindByProto(proto: string): TransactionKind | undefined {
  return TRANSACTION_KINDS.find((kind) => kind.proto === proto);
}

export function kindByRest(rest: string): TransactionKind | undefined {
  return TRANSACTION_KINDS.find((kind) => kind.rest === rest);
}

/** The proto enum number of a REST transaction (an opaque one keeps its own), for type filters. */
export function kindOfRestType(tx: unknown): number {
  const record = (tx ?? {}) as Record<string, unknown>;
  const kind = typeof record['type'] === 'string' ? kindByRest(record['type']) : undefined;
  return kind?.number ?? Number(record['proto_type'] ?? 0);
}
