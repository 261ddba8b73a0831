import { asArray, asRecord, asString, type JsonRecord } from '../json';
import { moveTypeJson } from './move-type-json';
import { kindByRest, UNKNOWN_REST_TYPE } from './transaction-types';

/**
 * The inverse of protoToRest, for the devnet's gRPC server: a fullnode REST transaction as the
 * canonical proto3 JSON of `aptos.transaction.v1.Transaction`. It only has to restore what
 * protoToRest reads (the round trip is tested on every generated and recorded transaction); what
 * REST does not carry (block height, epoch, raw table-item BCS) is left at the proto default.
 */
export function restToProto(restJson: unknown): JsonRecord {
  const rest = asRecord(restJson);
  if (rest === null) throw new TypeError('REST transaction is not a JSON object');
  const restType = asString(rest['type']) ?? '';
  const kind = kindByRest(restType);
  if (kind === undefined && restType !== UNKNOWN_REST_TYPE) {
    throw new TypeError(`unknown REST transaction type ${restType}`);
  }
  const info: JsonRecord = {
    hash: hexToBase64(rest['hash']),
    stateChangeHash: hexToBase64(rest['state_change_hash']),
    eventRootHash: hexToBase64(rest['event_root_hash']),
    gasUsed: asString(rest['gas_used']) ?? '0',
    success: rest['success'] === true,
    vmStatus: asString(rest['vm_status']) ?? '',
    accumulatorRootHash: hexToBase64(rest['accumulator_root_hash']),
    changes: (asArray(rest['changes']) ?? []).map(convertChange),
  };
  const checkpoint = asString(rest['state_checkpoint_hash']);
  if (checkpoint !== null) info['stateCheckpointHash'] = hexToBase64(checkpoint);
  const proto: JsonRecord = {
    version: asString(rest['version']) ?? '0',
    // Genesis has no timestamp on REST; the proto's is the epoch.
    timestamp: timestampJson(rest['timestamp']),
    // A type number this build has no name for (canonical proto3 JSON prints it as the number).
    type: kind?.proto ?? Number(rest['proto_type'] ?? 0),
    info,
  };
  if (kind !== undefined) Object.assign(proto, BODIES[kind.rest]?.(rest, proto));
  return proto;
}

type BodyToProto = (rest: JsonRecord, proto: JsonRecord) => JsonRecord;

const events = (rest: JsonRecord) => (asArray(rest['events']) ?? []).map(convertEvent);

/** Each type's proto body (and the Transaction fields only that type's REST form carries). */
const BODIES: Record<string, BodyToProto> = {
  user_transaction: (rest) => {
    const request: JsonRecord = {
      sender: asString(rest['sender']) ?? '0x0',
      sequenceNumber: asString(rest['sequence_number']) ?? '0',
      maxGasAmount: asString(rest['max_gas_amount']) ?? '0',
      gasUnitPrice: asString(rest['gas_unit_price']) ?? '0',
      expirationTimestampSecs: { seconds: asString(rest['expiration_timestamp_secs']) ?? '0' },
      payload: convertPayload(rest['payload']),
    };
    if (rest['signature'] !== undefined) request['signature'] = convertSignature(rest['signature']);
    return { user: { request, events: events(rest) } };
  },
  genesis_transaction: (rest) => {
    const writeSet = asRecord(asRecord(rest['payload'])?.['write_set']) ?? {};
    return {
      genesis: {
        payload: {
          writeSetType: 'WRITE_SET_TYPE_DIRECT_WRITE_SET',
          directWriteSet: {
            writeSetChange: (asArray(writeSet['changes']) ?? []).map(convertChange),
            events: events(writeSet),
          },
        },
        events: events(rest),
      },
    };
  },
  block_metadata_transaction: (rest) => ({
    epoch: asString(rest['epoch']) ?? '0',
    blockMetadata: {
      id: asString(rest['id']) ?? '',
      round: asString(rest['round']) ?? '0',
      events: events(rest),
      previousBlockVotesBitvec: Buffer.from(
        (asArray(rest['previous_block_votes_bitvec']) ?? []).map(Number),
      ).toString('base64'),
      proposer: asString(rest['proposer']) ?? '0x0',
      failedProposerIndices: (asArray(rest['failed_proposer_indices']) ?? []).map(Number),
    },
  }),
  state_checkpoint_transaction: () => ({ stateCheckpoint: {} }),
  validator_transaction: (rest) => ({ validator: { ...validatorBody(rest), events: events(rest) } }),
  block_epilogue_transaction: (rest) => {
    const end = asRecord(rest['block_end_info']);
    return {
      blockEpilogue:
        end === null
          ? {}
          : {
              blockEndInfo: {
                blockGasLimitReached: end['block_gas_limit_reached'] === true,
                blockOutputLimitReached: end['block_output_limit_reached'] === true,
                blockEffectiveBlockGasUnits: String(end['block_effective_block_gas_units'] ?? 0),
                blockApproxOutputSize: String(end['block_approx_output_size'] ?? 0),
              },
            },
    };
  },
  scheduled_transaction: (rest) => ({
    scheduledTransaction: {
      sender: asString(rest['sender']) ?? '0x0',
      maxGasAmount: asString(rest['max_gas_amount']) ?? '0',
      gasUnitPrice: asString(rest['gas_unit_price']) ?? '0',
      scheduleTime: asString(rest['schedule_time']) ?? '0',
      txnId: hexToBase64(rest['txn_id']),
      events: events(rest),
    },
  }),
};

function validatorBody(rest: JsonRecord): JsonRecord {
  const dkg = asRecord(rest['dkg_transcript']);
  if (rest['validator_transaction_type'] === 'dkg_result' && dkg !== null) {
    return {
      dkgUpdate: {
        dkgTranscript: {
          epoch: asString(dkg['epoch']) ?? '0',
          author: asString(dkg['author']) ?? '0x0',
          payload: hexToBase64(dkg['payload']),
        },
      },
    };
  }
  const update = asRecord(rest['quorum_certified_update']);
  if (update === null) return {};
  const provider = asRecord(update['update']) ?? {};
  const signature = asRecord(update['multi_sig']) ?? {};
  return {
    observedJwkUpdate: {
      quorumCertifiedUpdate: {
        update: {
          issuer: asString(provider['issuer']) ?? '',
          version: String(provider['version'] ?? 0),
          jwks: (asArray(provider['jwks']) ?? []).map((value) => {
            const jwk = asRecord(value) ?? {};
            const rsa = asRecord(jwk['RSA_JWK']);
            if (rsa !== null) return { rsa };
            const other = asRecord(jwk['UnsupportedJWK']) ?? {};
            return {
              unsupportedJwk: { id: hexToBase64(other['id']), payload: hexToBase64(other['payload']) },
            };
          }),
        },
        multiSig: {
          signerIndices: (asArray(signature['signer_indices']) ?? []).map(String),
          ...(signature['sig'] === null || signature['sig'] === undefined
            ? {}
            : { sig: hexToBase64(signature['sig']) }),
        },
      },
    },
  };
}

function hexToBase64(value: unknown): string {
  const hex = (asString(value) ?? '').replace(/^0x/, '');
  return Buffer.from(hex, 'hex').toString('base64');
}

/** Microseconds (decimal string) → `{seconds, nanos}`; exact, as protoToRest floors nanos to µs. */
function timestampJson(value: unknown): JsonRecord {
  const us = BigInt(asString(value) ?? '0');
  return { seconds: (us / 1_000_000n).toString(), nanos: Number(us % 1_000_000n) * 1000 };
}

const stringify = (value: unknown): string => JSON.stringify(value ?? null);

function convertEvent(value: unknown): JsonRecord {
  const event = asRecord(value) ?? {};
  const guid = asRecord(event['guid']) ?? {};
  return {
    key: {
      creationNumber: asString(guid['creation_number']) ?? '0',
      accountAddress: asString(guid['account_address']) ?? '0x0',
    },
    sequenceNumber: asString(event['sequence_number']) ?? '0',
    type: moveTypeJson(asString(event['type']) ?? ''),
    typeStr: asString(event['type']) ?? '',
    data: stringify(event['data']),
  };
}

function convertChange(value: unknown): JsonRecord {
  const change = asRecord(value) ?? {};
  const stateKeyHash = hexToBase64(change['state_key_hash']);
  switch (asString(change['type'])) {
    case 'write_resource': {
      const data = asRecord(change['data']) ?? {};
      const typeStr = asString(data['type']) ?? '';
      return {
        type: 'TYPE_WRITE_RESOURCE',
        writeResource: {
          address: asString(change['address']),
          stateKeyHash,
          type: structTag(typeStr),
          typeStr,
          data: stringify(data['data']),
        },
      };
    }
    case 'delete_resource': {
      const typeStr = asString(change['resource']) ?? '';
      return {
        type: 'TYPE_DELETE_RESOURCE',
        deleteResource: {
          address: asString(change['address']),
          stateKeyHash,
          type: structTag(typeStr),
          typeStr,
        },
      };
    }
    case 'write_table_item': {
      const data = asRecord(change['data']);
      return {
        type: 'TYPE_WRITE_TABLE_ITEM',
        writeTableItem: {
          stateKeyHash,
          handle: asString(change['handle']),
          key: asString(change['key']),
          ...(data === null
            ? {}
            : {
                data: {
                  key: stringify(data['key']),
                  keyType: asString(data['key_type']),
                  value: stringify(data['value']),
                  valueType: asString(data['value_type']),
                },
              }),
        },
      };
    }
    case 'delete_table_item': {
      const data = asRecord(change['data']);
      return {
        type: 'TYPE_DELETE_TABLE_ITEM',
        deleteTableItem: {
          stateKeyHash,
          handle: asString(change['handle']),
          key: asString(change['key']),
          ...(data === null
            ? {}
            : { data: { key: stringify(data['key']), keyType: asString(data['key_type']) } }),
        },
      };
    }
    case 'write_module': {
      const data = asRecord(change['data']) ?? {};
      return {
        type: 'TYPE_WRITE_MODULE',
        writeModule: {
          address: asString(change['address']),
          stateKeyHash,
          data: { bytecode: hexToBase64(data['bytecode']) },
        },
      };
    }
    case 'delete_module':
      return {
        type: 'TYPE_DELETE_MODULE',
        deleteModule: { address: asString(change['address']), stateKeyHash, module: change['module'] },
      };
    default:
      return { type: `TYPE_${(asString(change['type']) ?? '').toUpperCase()}` };
  }
}

/** A resource's `MoveStructTag` (the proto carries it beside the type string). */
function structTag(typeStr: string): JsonRecord {
  const struct = asRecord(moveTypeJson(typeStr)['struct']) ?? {};
  return {
    address: struct['address'],
    module: struct['module'],
    name: struct['name'],
    genericTypeParams: struct['genericTypeParams'] ?? [],
  };
}

function convertEntryFunction(value: unknown): JsonRecord {
  const entry = asRecord(value) ?? {};
  const fn = asString(entry['function']) ?? '';
  const [address = '', module = '', name = ''] = fn.split('::');
  return {
    function: { module: { address, name: module }, name },
    typeArguments: (asArray(entry['type_arguments']) ?? []).map((t) => moveTypeJson(asString(t) ?? '')),
    arguments: (asArray(entry['arguments']) ?? []).map(stringify),
    entryFunctionIdStr: fn,
  };
}

function convertPayload(value: unknown): JsonRecord {
  const payload = asRecord(value) ?? {};
  switch (asString(payload['type'])) {
    case 'entry_function_payload':
      return { type: 'TYPE_ENTRY_FUNCTION_PAYLOAD', entryFunctionPayload: convertEntryFunction(payload) };
    case 'script_payload': {
      const code = asRecord(payload['code']) ?? {};
      const abi = asRecord(code['abi']);
      return {
        type: 'TYPE_SCRIPT_PAYLOAD',
        scriptPayload: {
          code: { bytecode: hexToBase64(code['bytecode']), ...(abi ? { abi: convertAbi(abi) } : {}) },
          typeArguments: (asArray(payload['type_arguments']) ?? []).map((t) =>
            moveTypeJson(asString(t) ?? ''),
          ),
          arguments: (asArray(payload['arguments']) ?? []).map(stringify),
        },
      };
    }
    case 'multisig_payload': {
      const inner = asRecord(payload['transaction_payload']);
      return {
        type: 'TYPE_MULTISIG_PAYLOAD',
        multisigPayload: {
          multisigAddress: asString(payload['multisig_address']),
          ...(inner
            ? {
                transactionPayload: {
                  type: 'TYPE_ENTRY_FUNCTION_PAYLOAD',
                  entryFunctionPayload: convertEntryFunction(inner),
                },
              }
            : {}),
        },
      };
    }
    default:
      return { type: `TYPE_${(asString(payload['type']) ?? '').toUpperCase()}` };
  }
}

function convertAbi(abi: JsonRecord): JsonRecord {
  return {
    name: asString(abi['name']) ?? '',
    visibility: `VISIBILITY_${(asString(abi['visibility']) ?? 'private').toUpperCase()}`,
    isEntry: abi['is_entry'] === true,
    isView: abi['is_view'] === true,
    genericTypeParams: (asArray(abi['generic_type_params']) ?? []).map((param) => ({
      constraints: asArray(asRecord(param)?.['constraints']) ?? [],
    })),
    params: (asArray(abi['params']) ?? []).map((t) => moveTypeJson(asString(t) ?? '')),
    return: (asArray(abi['return']) ?? []).map((t) => moveTypeJson(asString(t) ?? '')),
  };
}

function convertAccountSignature(value: unknown): JsonRecord {
  const signature = asRecord(value) ?? {};
  switch (asString(signature['type'])) {
    case 'ed25519_signature':
      return {
        type: 'TYPE_ED25519',
        ed25519: {
          publicKey: hexToBase64(signature['public_key']),
          signature: hexToBase64(signature['signature']),
        },
      };
    case 'multi_ed25519_signature':
      return {
        type: 'TYPE_MULTI_ED25519',
        multiEd25519: {
          publicKeys: (asArray(signature['public_keys']) ?? []).map(hexToBase64),
          signatures: (asArray(signature['signatures']) ?? []).map(hexToBase64),
          threshold: Number(signature['threshold'] ?? 0),
          publicKeyIndices: hexToBase64(signature['bitmap']),
        },
      };
    default:
      return { type: `TYPE_${(asString(signature['type']) ?? '').toUpperCase()}` };
  }
}

function convertSignature(value: unknown): JsonRecord {
  const signature = asRecord(value) ?? {};
  const kind = asString(signature['type']);
  if (kind === 'fee_payer_signature' || kind === 'multi_agent_signature') {
    const body: JsonRecord = {
      sender: convertAccountSignature(signature['sender']),
      secondarySignerAddresses: asArray(signature['secondary_signer_addresses']) ?? [],
      secondarySigners: (asArray(signature['secondary_signers']) ?? []).map(convertAccountSignature),
    };
    if (kind === 'multi_agent_signature') return { type: 'TYPE_MULTI_AGENT', multiAgent: body };
    return {
      type: 'TYPE_FEE_PAYER',
      feePayer: {
        ...body,
        feePayerAddress: asString(signature['fee_payer_address']),
        feePayerSigner: convertAccountSignature(signature['fee_payer_signer']),
      },
    };
  }
  return convertAccountSignature(signature);
}
