/**
 * The Aptos fullnode REST shapes the devnet serves (aptos-core `api/types`), written out here rather
 * than imported from @aptos-labs/ts-sdk because the SDK's types differ from the wire in places
 * (e.g. it marks `replay_protection_nonce` required and swaps the ed25519 signature fields).
 */
export type MoveJson = string | number | boolean | null | MoveJson[] | { [key: string]: MoveJson };

export interface RestEvent {
  guid: { creation_number: string; account_address: string };
  sequence_number: string;
  type: string;
  data: MoveJson;
}

export type RestChange =
  | {
      type: 'write_resource';
      address: string;
      state_key_hash: string;
      data: { type: string; data: MoveJson };
    }
  | { type: 'delete_resource'; address: string; state_key_hash: string; resource: string }
  | {
      type: 'write_table_item';
      state_key_hash: string;
      handle: string;
      key: string;
      value: string;
      data: { key: MoveJson; key_type: string; value: MoveJson; value_type: string } | null;
    }
  | {
      type: 'delete_table_item';
      state_key_hash: string;
      handle: string;
      key: string;
      data: { key: MoveJson; key_type: string } | null;
    };

interface RestEntryFunctionPayload {
  type: 'entry_function_payload';
  function: string;
  type_arguments: string[];
  arguments: MoveJson[];
}

export interface RestUserTransaction {
  type: 'user_transaction';
  version: string;
  hash: string;
  state_change_hash: string;
  event_root_hash: string;
  state_checkpoint_hash: string | null;
  gas_used: string;
  success: boolean;
  vm_status: string;
  accumulator_root_hash: string;
  changes: RestChange[];
  sender: string;
  sequence_number: string;
  max_gas_amount: string;
  gas_unit_price: string;
  expiration_timestamp_secs: string;
  payload: RestEntryFunctionPayload | { type: string; [key: string]: MoveJson };
  signature?: { type: string; [key: string]: MoveJson };
  events: RestEvent[];
  timestamp: string;
}

/**
 * A generated system transaction (`block_metadata_transaction`, `validator_transaction`,
 * `block_epilogue_transaction`, `state_checkpoint_transaction`); shapes in render/block.ts.
 */
export interface RestSystemTransaction {
  type: string;
  version: string;
  timestamp: string;
  [key: string]: unknown;
}

/** Any transaction JSON the server can hand out (generated ones, or recorded ones of any type). */
export type RestTransaction =
  | RestUserTransaction
  | RestSystemTransaction
  | { type: string; version: string; [key: string]: unknown };

export interface RestLedgerInfo {
  chain_id: number;
  epoch: string;
  ledger_version: string;
  oldest_ledger_version: string;
  ledger_timestamp: string;
  node_role: 'full_node';
  oldest_block_height: string;
  block_height: string;
  git_hash: string;
  /**
   * mdq's extension, present only when true: this node serves a recorded chain whose versions
   * skip (a range request starting in a hole answers the next recorded versions).
   */
  sparse?: true;
}
