import type { ChainConfig } from '../config';
import type { Slot, Timeline } from '../timeline';
import { hash32, hex32, moveAddress } from '../util/hex';
import type { MoveJson, RestChange, RestSystemTransaction } from './rest-types';

/** Size of the simulated validator set: proposers rotate through it, as on mainnet. */
const VALIDATORS = 8;
const JWK_ISSUER = 'https://accounts.google.com';

const hexUtf8 = (text: string): string => `0x${Buffer.from(text, 'utf8').toString('hex')}`;

/**
 * The system transactions of a generated block, in the fullnode's REST shapes (aptos-core
 * `api/types/src/transaction.rs`): `block_metadata_transaction` with its `0x1::block::NewBlockEvent`,
 * `validator_transaction` (an observed JWK update), and the block-ending `block_epilogue_transaction`
 * (AIP-88, with `block_end_info`) or the older `state_checkpoint_transaction`. None of them touches
 * an NFT; they are there so the indexer meets the chain as it is.
 */
export class BlockRenderer {
  private readonly validators: string[];

  constructor(
    private readonly config: ChainConfig,
    private readonly timeline: Timeline,
  ) {
    this.validators = Array.from({ length: VALIDATORS }, (_, i) => hash32(config.seed, i, 0x76616c));
  }

  render(slot: Exclude<Slot, { kind: 'user' }>, version: number): RestSystemTransaction {
    switch (slot.kind) {
      case 'block_metadata':
        return this.metadata(slot.block, version);
      case 'validator':
        return this.validator(slot.block, version);
      default:
        return this.blockEnd(slot.block, version);
    }
  }

  /** TransactionInfo: the fields every transaction type flattens in. */
  private info(version: number, changes: RestChange[], checkpoint: boolean) {
    const seed = this.config.seed;
    return {
      version: String(version),
      hash: hash32(seed, version, 0x7478),
      state_change_hash: hash32(seed, version, 0x7363),
      event_root_hash: hash32(seed, version, 0x6572),
      state_checkpoint_hash: checkpoint ? hash32(seed, version, 0x636b) : null,
      gas_used: '0',
      success: true,
      vm_status: 'Executed successfully',
      accumulator_root_hash: hash32(seed, version, 0x6163),
      changes,
    };
  }

  private metadata(block: number, version: number): RestSystemTransaction {
    const t = this.timeline;
    const timestampUs = String(t.blockTimestampUs(block));
    const epoch = String(t.epochOfBlock(block));
    // Rounds only grow; a round without a block is a failed proposal, which the devnet has none of.
    const round = String(block + 1);
    const proposer = this.validators[block % VALIDATORS] as string;
    const votes = [0xff - (block % 3)];
    const id = hash32(this.config.seed, block, 0x626c6b);
    const resource = (type: string, data: MoveJson): RestChange => ({
      type: 'write_resource',
      address: '0x1',
      state_key_hash: hash32(this.config.seed, type.length, 0x736b),
      data: { type, data },
    });
    return {
      ...this.info(
        version,
        [
          resource('0x1::block::BlockResource', {
            epoch_interval: '7200000000',
            height: String(block),
            new_block_events: {
              counter: String(block + 1),
              guid: { id: { addr: '0x1', creation_num: '3' } },
            },
            update_epoch_interval_events: {
              counter: '0',
              guid: { id: { addr: '0x1', creation_num: '4' } },
            },
          }),
          resource('0x1::timestamp::CurrentTimeMicroseconds', { microseconds: timestampUs }),
        ],
        false,
      ),
      id,
      epoch,
      round,
      events: [
        {
          guid: { creation_number: '3', account_address: '0x1' },
          sequence_number: String(block),
          type: '0x1::block::NewBlockEvent',
          data: {
            epoch,
            failed_proposer_indices: [],
            hash: id,
            height: String(block),
            previous_block_votes_bitvec: `0x${votes.map((b) => b.toString(16).padStart(2, '0')).join('')}`,
            proposer: moveAddress(proposer.slice(2)),
            round,
            time_microseconds: timestampUs,
          },
        },
      ],
      previous_block_votes_bitvec: votes,
      proposer,
      failed_proposer_indices: [],
      timestamp: timestampUs,
      type: 'block_metadata_transaction',
    };
  }

  /** An observed JWK update (the validator transaction mainnet carries most often). */
  private validator(block: number, version: number): RestSystemTransaction {
    const t = this.timeline;
    const seed = this.config.seed;
    const jwkVersion = Math.floor(block / 100) + 1;
    const kid = hex32(seed, block, 0x6b6964).slice(0, 40);
    const n = Buffer.from(hex32(seed, block, 0x6e) + hex32(seed, block, 0x6e6e), 'hex').toString('base64url');
    return {
      ...this.info(version, [], false),
      events: [
        {
          guid: { creation_number: '0', account_address: '0x0' },
          sequence_number: '0',
          type: '0x1::jwks::ObservedJWKsUpdated',
          data: {
            epoch: String(t.epochOfBlock(block)),
            jwks: {
              entries: [
                {
                  issuer: hexUtf8(JWK_ISSUER),
                  jwks: [
                    {
                      variant: {
                        data: hexUtf8(JSON.stringify({ kid, kty: 'RSA', alg: 'RS256', e: 'AQAB', n })),
                        type_name: '0x1::jwks::RSA_JWK',
                      },
                    },
                  ],
                  version: String(jwkVersion),
                },
              ],
            },
          },
        },
      ],
      timestamp: String(t.blockTimestampUs(block)),
      quorum_certified_update: {
        update: {
          issuer: JWK_ISSUER,
          version: jwkVersion,
          // The JWK enum as the API writes it: keyed by the variant's type name (as @mdq/chain's protoToRest reads it).
          jwks: [{ RSA_JWK: { kid, kty: 'RSA', alg: 'RS256', e: 'AQAB', n } }],
        },
        multi_sig: { signer_indices: [0, 1, 2, 3, 4, 5], sig: hash32(seed, block, 0x736967) },
      },
      validator_transaction_type: 'observed_jwk_update',
      type: 'validator_transaction',
    };
  }

  private blockEnd(block: number, version: number): RestSystemTransaction {
    const timestamp = String(this.timeline.blockTimestampUs(block));
    if (this.config.blockEnding === 'state_checkpoint')
      return { ...this.info(version, [], true), timestamp, type: 'state_checkpoint_transaction' };
    const users = this.timeline.firstStep(block + 1) - this.timeline.firstStep(block);
    return {
      ...this.info(version, [], true),
      timestamp,
      block_end_info: {
        block_gas_limit_reached: false,
        block_output_limit_reached: false,
        block_effective_block_gas_units: users * 25,
        block_approx_output_size: users * 3_200 + 500,
      },
      type: 'block_epilogue_transaction',
    };
  }
}
