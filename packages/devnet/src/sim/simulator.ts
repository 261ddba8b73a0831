import { Rng } from '../util/prng';
import type { World } from '../world/world';
import { SimContext } from './context';
import { createLootbox, openLootbox, purchaseLootbox, updateLootbox } from './lootbox-actions';
import {
  cancelCollectionOffer,
  cancelListing,
  cancelTokenOffer,
  fillCollectionOffer,
  fillListing,
  fillTokenOffer,
  list,
  placeCollectionOffer,
  placeTokenOffer,
  relist,
} from './market-actions';
import { coinTransfer } from './noise-actions';
import type { Plan } from './plan';
import { SimState } from './state';
import { burn, createCollection, mint, transfer } from './token-actions';
import { runWashStep, startWashCampaign } from './wash-actions';

type Action = (ctx: SimContext) => Plan | null;

/** Relative frequencies of the unscheduled actions. */
const ACTIONS: readonly [Action, number][] = [
  [mint, 0.2],
  [list, 0.16],
  [fillListing, 0.11],
  [cancelListing, 0.035],
  [relist, 0.025],
  [transfer, 0.05],
  [burn, 0.008],
  [placeTokenOffer, 0.055],
  [cancelTokenOffer, 0.02],
  [fillTokenOffer, 0.02],
  [placeCollectionOffer, 0.035],
  [cancelCollectionOffer, 0.012],
  [fillCollectionOffer, 0.03],
  [purchaseLootbox, 0.06],
  [openLootbox, 0.05],
  [updateLootbox, 0.004],
  [startWashCampaign, 0.006],
];
const CUMULATIVE = (() => {
  const c = new Float64Array(ACTIONS.length);
  let acc = 0;
  ACTIONS.forEach(([, w], i) => {
    acc += w;
    c[i] = acc;
  });
  return c;
})();
/** Tried in order when the drawn action has nothing to act on. */
const FALLBACKS: readonly Action[] = [mint, list, transfer, purchaseLootbox, openLootbox];

/**
 * Advances the market one version at a time. `step()` mutates the state and returns the plan of
 * the transaction at the current version; the state (including the PRNG words) can be cloned at
 * any version and resumed to produce exactly the same continuation.
 */
export class Simulator {
  readonly ctx: SimContext;

  constructor(
    readonly world: World,
    state?: SimState,
  ) {
    const s = state ?? Simulator.initialState(world);
    this.ctx = new SimContext(world, s);
  }

  static initialState(world: World): SimState {
    const s = new SimState(world, Math.max(1024, Math.round(world.config.transactionsCount * 0.3)));
    s.rng = Rng.fromSeed(world.config.seed, 0x73696d).snapshot();
    return s;
  }

  get state(): SimState {
    return this.ctx.state;
  }

  get version(): number {
    return this.ctx.state.version;
  }

  step(): Plan {
    const ctx = this.ctx;
    const s = ctx.state;
    ctx.enter(s.version);
    const plan = this.decide(ctx);
    s.version++;
    return plan;
  }

  /** A copy of the state at the current version, PRNG included. */
  checkpoint(): SimState {
    this.ctx.state.rng = this.ctx.rng.snapshot();
    return this.ctx.state.clone();
  }

  private decide(ctx: SimContext): Plan {
    const scheduled = this.world.schedule.get(ctx.version);
    if (scheduled !== undefined) {
      return scheduled.kind === 'collection'
        ? createCollection(ctx, scheduled.index)
        : createLootbox(ctx, scheduled.index);
    }
    // A wash campaign in flight runs on consecutive versions, so nothing else touches its token.
    const wash = runWashStep(ctx);
    if (wash !== null) return wash;
    // Mainnet-shaped traffic: most transactions touch no NFT. Without noise no draw is spent, so
    // the default chains stay byte for byte what they were.
    const noise = this.world.config.noiseShare;
    if (noise > 0 && ctx.rng.chance(noise)) return coinTransfer(ctx);
    const drawn = ACTIONS[ctx.rng.pickCumulative(CUMULATIVE)]?.[0];
    const plan = drawn?.(ctx) ?? null;
    if (plan !== null) return plan;
    for (const fallback of FALLBACKS) {
      const p = fallback(ctx);
      if (p !== null) return p;
    }
    // Unreachable with the built-in world (collection 0 exists at version 0 and the fallbacks
    // include mint and list); fail loudly rather than emit a fake transaction.
    throw new Error(`simulation stalled at version ${ctx.version}`);
  }
}
