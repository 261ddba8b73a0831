import { type ChainOptions, resolveConfig } from '../config';
import { BlockRenderer } from '../render/block';
import { Renderer } from '../render/renderer';
import type { RestTransaction } from '../render/rest-types';
import type { Plan } from '../sim/plan';
import { Simulator } from '../sim/simulator';
import { buildWorld, type World } from '../world/world';

/**
 * Watches the simulation step by step. `step` counts user transactions (simulator steps), not
 * versions: `world.timeline.versionOfStep(step)` is the step's version on chain.
 */
export interface StepObserver {
  /** Called before step `step` (state = after step-1). */
  before?(sim: Simulator, step: number, timestampUs: number): void;
  /** Called with the plan right after the step (state = after it). */
  after?(sim: Simulator, plan: Plan, step: number, timestampUs: number): void;
}

/**
 * Streams the chain from version 0, system transactions included: memory stays bounded by the
 * market state (tokens, accounts, open orders), never by the number of transactions produced.
 * `end` (exclusive) is a version; default: the end of the initial chain.
 */
export function* streamTransactions(
  options: ChainOptions | World,
  range: { end?: number } = {},
  observer?: StepObserver,
): Generator<RestTransaction> {
  const world = 'timeline' in options ? options : buildWorld(resolveConfig(options));
  const { timeline } = world;
  const sim = new Simulator(world);
  const renderer = new Renderer(world);
  const blocks = new BlockRenderer(world.config, timeline);
  const end = range.end ?? timeline.initialVersions;
  for (let v = 0; v < end; v++) {
    const slot = timeline.slot(v);
    if (slot.kind !== 'user') {
      yield blocks.render(slot, v);
      continue;
    }
    const ts = timeline.stepTimestampUs(slot.step);
    observer?.before?.(sim, slot.step, ts);
    const plan = sim.step();
    observer?.after?.(sim, plan, slot.step, ts);
    yield renderer.render(plan, v, slot.step, sim.state);
  }
}

/** Runs the simulation of `end` steps without rendering (facts, checkpoints): several times faster. */
export function simulate(world: World, end: number, observer?: StepObserver): Simulator {
  const sim = new Simulator(world);
  for (let v = 0; v < end; v++) {
    const ts = world.timeline.stepTimestampUs(v);
    observer?.before?.(sim, v, ts);
    const plan = sim.step();
    observer?.after?.(sim, plan, v, ts);
  }
  return sim;
}
