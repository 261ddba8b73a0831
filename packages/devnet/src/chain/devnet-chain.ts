import { type ChainConfig, type ChainOptions, resolveConfig } from '../config';
import { FactsRecorder } from '../facts/recorder';
import type { DevnetFacts } from '../facts/types';
import { BlockRenderer } from '../render/block';
import { Renderer } from '../render/renderer';
import type { RestTransaction } from '../render/rest-types';
import { Simulator } from '../sim/simulator';
import type { SimState } from '../sim/state';
import { buildWorld, type World } from '../world/world';

const MAX_CURSORS = 4;

export interface DevnetChainOptions extends ChainOptions {
  /** Versions between stored simulator checkpoints. Default max(10_000, count / 8). */
  checkpointEvery?: number;
}

/**
 * Random access to the (unbounded) generated chain without keeping transactions in memory.
 * One simulation pass stores a checkpoint of the simulator state every `checkpointEvery`
 * versions; a read at version X resumes from the nearest cursor or checkpoint at or below X,
 * fast-forwards without rendering, then renders. Sequential readers (an indexer paging
 * forward) reuse their cursor, so each page costs only its own transactions.
 */
export class DevnetChain {
  readonly config: ChainConfig;
  readonly world: World;
  readonly checkpointEvery: number;
  private readonly renderer: Renderer;
  private readonly blocks: BlockRenderer;
  private readonly checkpoints = new Map<number, SimState>();
  private cursors: Simulator[] = [];
  private facts: DevnetFacts | null = null;

  constructor(options: DevnetChainOptions = {}) {
    this.config = resolveConfig(options);
    this.world = buildWorld(this.config);
    this.renderer = new Renderer(this.world);
    this.blocks = new BlockRenderer(this.config, this.world.timeline);
    this.checkpointEvery = Math.max(
      1_000,
      options.checkpointEvery ?? Math.max(10_000, Math.ceil(this.config.transactionsCount / 8)),
    );
    this.checkpoints.set(0, Simulator.initialState(this.world));
  }

  /**
   * Simulates the initial chain once (no rendering): stores checkpoints and computes the facts.
   * Idempotent; called lazily by `getFacts` and by the server before it listens.
   */
  prepare(): DevnetFacts {
    if (this.facts !== null) return this.facts;
    const recorder = new FactsRecorder(this.world);
    const sim = new Simulator(this.world, this.cloneCheckpoint(0));
    const end = this.config.transactionsCount;
    for (let v = 0; v < end; v++) {
      this.maybeCheckpoint(sim);
      const ts = this.world.timeline.stepTimestampUs(v);
      recorder.before(sim, v, ts);
      const plan = sim.step();
      recorder.after(sim, plan, v, ts);
    }
    this.facts = recorder.finish(sim);
    this.keepCursor(sim);
    return this.facts;
  }

  getFacts(): DevnetFacts {
    return this.prepare();
  }

  /**
   * Transactions at versions [start, start + limit), blocks laid out as on mainnet (Timeline).
   * Versions beyond the initial chain are the live continuation. Simulator checkpoints and cursors
   * count steps (user transactions); system transactions need no simulator.
   */
  range(start: number, limit: number): RestTransaction[] {
    const timeline = this.world.timeline;
    let sim: Simulator | null = null;
    const out: RestTransaction[] = [];
    for (let v = start; v < start + limit; v++) {
      const slot = timeline.slot(v);
      if (slot.kind !== 'user') {
        out.push(this.blocks.render(slot, v));
        continue;
      }
      // The user transactions of consecutive versions are consecutive steps.
      sim ??= this.cursorAt(slot.step);
      this.maybeCheckpoint(sim);
      const plan = sim.step();
      out.push(this.renderer.render(plan, v, slot.step, sim.state));
    }
    if (sim !== null) this.keepCursor(sim);
    return out;
  }

  transaction(version: number): RestTransaction {
    return this.range(version, 1)[0] as RestTransaction;
  }

  /** Number of stored checkpoints (for diagnostics and the benchmark). */
  get checkpointCount(): number {
    return this.checkpoints.size;
  }

  private maybeCheckpoint(sim: Simulator): void {
    const v = sim.version;
    if (v % this.checkpointEvery === 0 && !this.checkpoints.has(v)) this.checkpoints.set(v, sim.checkpoint());
  }

  private cloneCheckpoint(version: number): SimState {
    const state = this.checkpoints.get(version);
    if (state === undefined) throw new Error(`no checkpoint at ${version}`);
    return state.clone();
  }

  /** A simulator positioned exactly at `version` (its next step produces that version). */
  private cursorAt(version: number): Simulator {
    let best: Simulator | null = null;
    for (const c of this.cursors) {
      if (c.version <= version && (best === null || c.version > best.version)) best = c;
    }
    const base = Math.floor(version / this.checkpointEvery) * this.checkpointEvery;
    let from = base;
    while (!this.checkpoints.has(from)) from -= this.checkpointEvery;
    let sim: Simulator;
    if (best !== null && best.version >= from) {
      this.cursors = this.cursors.filter((c) => c !== best);
      sim = best;
    } else {
      sim = new Simulator(this.world, this.cloneCheckpoint(from));
    }
    while (sim.version < version) {
      this.maybeCheckpoint(sim);
      sim.step();
    }
    return sim;
  }

  private keepCursor(sim: Simulator): void {
    this.cursors.push(sim);
    if (this.cursors.length > MAX_CURSORS) this.cursors.shift();
  }
}
