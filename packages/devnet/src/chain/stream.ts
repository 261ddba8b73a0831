import { type ChainOptions, resolveConfig } from '../config';
import { Renderer } from '../render/renderer';
import type { RestUserTransaction } from '../render/rest-types';
import type { Plan } from '../sim/plan';
import { Simulator } from '../sim/simulator';
import { buildWorld, type World } from '../world/world';

export interface StepObserver {
  /** Called before the step at `version` (state = after version-1). */
  before?(sim: Simulator, version: number, timestampUs: number): void;
  /** Called with the plan right after the step (state = after version). */
  after?(sim: Simulator, plan: Plan, version: number, timestampUs: number): void;
}

/**
 * Streams the chain from version 0: memory stays bounded by the market state (tokens, accounts,
 * open orders), never by the number of transactions produced.
 */
export function* streamTransactions(
  options: ChainOptions | World,
  range: { end?: number } = {},
  observer?: StepObserver,
): Generator<RestUserTransaction> {
  const world = 'timeline' in options ? options : buildWorld(resolveConfig(options));
  const sim = new Simulator(world);
  const renderer = new Renderer(world);
  const end = range.end ?? world.config.transactionsCount;
  for (let v = 0; v < end; v++) {
    const ts = world.timeline.timestampUs(v);
    observer?.before?.(sim, v, ts);
    const plan = sim.step();
    observer?.after?.(sim, plan, v, ts);
    yield renderer.render(plan, v, sim.state);
  }
}

/** Runs the simulation without rendering (facts, checkpoints): several times faster. */
export function simulate(world: World, end: number, observer?: StepObserver): Simulator {
  const sim = new Simulator(world);
  for (let v = 0; v < end; v++) {
    const ts = world.timeline.timestampUs(v);
    observer?.before?.(sim, v, ts);
    const plan = sim.step();
    observer?.after?.(sim, plan, v, ts);
  }
  return sim;
}
