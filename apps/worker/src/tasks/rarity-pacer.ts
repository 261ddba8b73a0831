/**
 * Paces OpenRarity recomputes, each collection's and all of this process's together, so that they
 * take a bounded share of the time: after a computation of `ms` ending at `t`, that collection
 * waits until `t + ms · (1/perCollection − 1)`, and every collection until `t + ms · (1/overall − 1)`.
 * A recompute rewrites every row of its collection, and scores move with every mint (each trait's
 * share of the collection does), so collections minting steadily were recomputed at every
 * collection-changed job: under the live API bench, about two a second with the largest (31k rows)
 * among them, more database time than every API read together (docs/PERFORMANCE.md). A recompute of
 * a few milliseconds is held back by milliseconds; a 2.5 s one of the largest collection holds it
 * for 22.5 s and the others for 7.5 s at the defaults. One per worker (`startWorker`): two workers
 * pace their own runs, so together they may take twice the share.
 *
 * A quarter overall: a recompute holds a backend (and a core) for its whole run. At half, under the
 * live API bench (the metadata crawler changing traits in every collection), rarity took as much
 * of the database's time as every API read together, and a recompute made cheaper was only run
 * more often (docs/PERFORMANCE.md).
 */
export class RarityPacer {
  private readonly last = new Map<string, { endedAt: number; ms: number }>();
  private any = { endedAt: 0, ms: 0 };

  constructor(
    private readonly perCollection = 0.1,
    private readonly overall = 0.25,
  ) {}

  /** Milliseconds until the collection's next recompute may start (0: now). */
  waitMs(collectionId: string, now: number): number {
    const overall = this.any.endedAt + this.any.ms * (1 / this.overall - 1) - now;
    const last = this.last.get(collectionId);
    let own = 0;
    if (last) {
      own = last.endedAt + last.ms * (1 / this.perCollection - 1) - now;
      // Past its pause the entry says nothing more: the map holds only collections being paced.
      if (own <= 0) this.last.delete(collectionId);
    }
    return Math.max(0, Math.ceil(Math.max(overall, own)));
  }

  /** A recompute of the collection ran from `startedAt` to `endedAt` (epoch ms). */
  record(collectionId: string, startedAt: number, endedAt: number): void {
    const ran = { endedAt, ms: Math.max(0, endedAt - startedAt) };
    this.last.set(collectionId, ran);
    this.any = ran;
  }
}
