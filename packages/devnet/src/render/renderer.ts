import type { Plan } from '../sim/plan';
import type { SimState } from '../sim/state';
import { hash32 } from '../util/hex';
import type { World } from '../world/world';
import { TxBuilder } from './builder';
import { renderCoinTransfer } from './coin';
import { Entities } from './entities';
import { renderLootbox } from './lootbox';
import {
  renderCloseListing,
  renderCollectionOffer,
  renderList,
  renderRelist,
  renderTokenOffer,
} from './market';
import type { RestUserTransaction } from './rest-types';
import { type Call, renderBurn, renderCreateCollection, renderMint, renderTransfer } from './tokens';

function renderCall(b: TxBuilder, e: Entities, s: SimState, p: Plan): Call {
  switch (p.kind) {
    case 'create_collection':
      return renderCreateCollection(b, e, s, p);
    case 'mint':
      return renderMint(b, e, s, p);
    case 'transfer':
      return renderTransfer(b, e, s, p);
    case 'burn':
      return renderBurn(b, e, s, p);
    case 'list':
      return renderList(b, e, s, p);
    case 'relist':
      return renderRelist(b, e, s, p);
    case 'cancel_listing':
    case 'fill_listing':
      return renderCloseListing(b, e, s, p);
    case 'place_token_offer':
    case 'cancel_token_offer':
    case 'fill_token_offer':
      return renderTokenOffer(b, e, s, p);
    case 'place_collection_offer':
    case 'cancel_collection_offer':
    case 'fill_collection_offer':
      return renderCollectionOffer(b, e, s, p);
    case 'coin_transfer':
      return renderCoinTransfer(b, e, s, p);
    default:
      return renderLootbox(b, e, s, p);
  }
}

/**
 * Turns a plan into the fullnode's REST JSON. Must run right after the simulator step that made
 * the plan: resource writes show the state *after* the transaction (counters, supplies).
 */
export class Renderer {
  readonly entities: Entities;
  private readonly seed: number;
  private readonly publicKeys: string[];

  constructor(readonly world: World) {
    this.entities = new Entities(world);
    this.seed = world.config.seed;
    this.publicKeys = world.accountHex.map((_, i) => hash32(this.seed, i, 0x706b));
  }

  /** `step` is the simulator step that made the plan, `version` its place on chain (Timeline). */
  render(plan: Plan, version: number, step: number, state: SimState): RestUserTransaction {
    const e = this.entities;
    const b = new TxBuilder();
    const call = renderCall(b, e, state, plan);
    const ioGas = 4 + b.changes.length * 2;
    const execGas = 6 + b.events.length * 3;
    const storageOctas =
      plan.kind.startsWith('place') || plan.kind === 'mint' || plan.kind === 'list' ? 48_960 : 0;
    // Gas units are integers on chain (u64); storage is charged in whole gas units.
    const total = ioGas + execGas + Math.ceil(storageOctas / 100);
    b.moduleEvent('0x1::transaction_fee::FeeStatement', {
      execution_gas_units: String(execGas),
      io_gas_units: String(ioGas),
      storage_fee_octas: String(storageOctas),
      storage_fee_refund_octas: '0',
      total_charge_gas_units: String(total),
    });
    const timestampUs = this.world.timeline.stepTimestampUs(step);
    const seed = this.seed;
    return {
      version: String(version),
      hash: hash32(seed, version, 0x7478),
      state_change_hash: hash32(seed, version, 0x7363),
      event_root_hash: hash32(seed, version, 0x6572),
      state_checkpoint_hash: null,
      gas_used: String(total),
      success: true,
      vm_status: 'Executed successfully',
      accumulator_root_hash: hash32(seed, version, 0x6163),
      changes: b.changes,
      sender: e.account(plan.sender),
      sequence_number: String(plan.sequenceNumber),
      max_gas_amount: String(Math.max(2000, total * 2)),
      gas_unit_price: '100',
      expiration_timestamp_secs: String(Math.floor(timestampUs / 1e6) + 600),
      payload: {
        function: call.function,
        type_arguments: call.typeArguments,
        arguments: call.arguments,
        type: 'entry_function_payload',
      },
      signature: {
        public_key: this.publicKeys[plan.sender] as string,
        signature: `${hash32(seed, version, 0x7331)}${hash32(seed, version, 0x7332).slice(2)}`,
        type: 'ed25519_signature',
      },
      events: b.events,
      timestamp: String(timestampUs),
      type: 'user_transaction',
    };
  }
}
