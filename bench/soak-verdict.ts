/**
 * The soak's verdict per series: flat, or growing. The first WARM_UP of the run is left out (caches
 * filling, JIT, pools opening); the rest is cut in two halves, A and B, and each half's level and
 * least-squares slope are compared. The rules, by kind of series:
 *
 * - memory (RSS, heap, Redis) and descriptors: **flat** when B's level is at most TOLERANCE above
 *   A's (at least the series' own floor, e.g. 4 MB of RSS), or when B's slope is at most a quarter
 *   of A's (a warm-up curve levelling off). Otherwise **growing**; both slopes are printed per hour. Heap is
 *   read at its floors (each half's lowest samples): a garbage collector's sawtooth is not growth.
 * - bytes that grow with the chain (database, each table): the bytes added per indexed version in
 *   B: **with the chain** when within 1.5× A's and within 2× what the table held per version when
 *   the run began (the initial chain's ingestion); **faster than the chain** otherwise (a table
 *   growing with time or with rewrites, or bloat autovacuum does not keep up with).
 * - delay and backlog (indexer lag, API p99, event-loop p99, queue depth): **bounded** when B's
 *   level is within 1.5× A's plus the floor, else **rising**.
 * - errors: **none** when B has none.
 * - a count that must hold (the live-feed streams open): **held** when every sample after warm-up
 *   is at its target, else **dropped**, with the lowest and how many samples were short.
 *
 * The thresholds are for a busy shared machine; a verdict from a short run is a hint. The test of
 * `pnpm test` asserts none of them (noise can flip any): they belong to the bench.
 */

type SeriesKind = 'memory' | 'heap' | 'chain-bytes' | 'delay' | 'errors' | 'held';

export interface Series {
  name: string;
  kind: SeriesKind;
  unit: string;
  /** Values by sample (null: not read at that sample). */
  values: (number | null)[];
  /** An absolute floor under which a difference is noise (in the series' unit). */
  floor: number;
  /** The value a `held` series must keep. */
  target?: number;
}

export interface Verdict {
  name: string;
  verdict: string;
  detail: string;
  ok: boolean;
}

const WARM_UP = 0.2;
const TOLERANCE = 0.05;

interface Point {
  x: number;
  y: number;
}

function slope(points: readonly Point[]): number {
  if (points.length < 2) return 0;
  const mx = points.reduce((s, p) => s + p.x, 0) / points.length;
  const my = points.reduce((s, p) => s + p.y, 0) / points.length;
  let num = 0;
  let den = 0;
  for (const p of points) {
    num += (p.x - mx) * (p.y - my);
    den += (p.x - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

const median = (ys: readonly number[]) => {
  const s = [...ys].sort((a, b) => a - b);
  return s.length === 0 ? 0 : (s[Math.floor((s.length - 1) / 2)] as number);
};
/** The mean of the lowest quarter: a heap's level after its collections. */
const lowFloor = (ys: readonly number[]) => {
  const s = [...ys].sort((a, b) => a - b).slice(0, Math.max(1, Math.ceil(ys.length / 4)));
  return s.reduce((a, b) => a + b, 0) / s.length;
};

/** The halves A and B of the samples after warm-up: points of (x, value), nulls dropped. */
function halves(xs: readonly number[], values: readonly (number | null)[]): [Point[], Point[]] {
  const from = Math.floor(values.length * WARM_UP);
  const points: Point[] = [];
  for (let i = from; i < values.length; i++) {
    const y = values[i];
    if (y !== null && y !== undefined && Number.isFinite(y)) points.push({ x: xs[i] as number, y });
  }
  const mid = Math.floor(points.length / 2);
  return [points.slice(0, mid), points.slice(mid)];
}

const fmt = (n: number, unit: string) =>
  `${Math.abs(n) >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(n === Math.round(n) ? 0 : 2)} ${unit}`.trim();

/**
 * One verdict. `minutes[i]` is sample i's time in minutes; `versions[i]` the indexed version (the
 * chain-bytes series are judged per version indexed).
 */
export function verdictOf(series: Series, minutes: readonly number[], versions: readonly number[]): Verdict {
  const [a, b] = halves(minutes, series.values);
  if (a.length < 2 || b.length < 2)
    return {
      name: series.name,
      verdict: 'too few samples',
      detail: `${a.length + b.length} after warm-up`,
      ok: true,
    };
  const ys = (ps: readonly Point[]) => ps.map((p) => p.y);
  switch (series.kind) {
    case 'memory':
    case 'heap': {
      const level = series.kind === 'heap' ? lowFloor : median;
      const [la, lb] = [level(ys(a)), level(ys(b))];
      const [sa, sb] = [slope(a), slope(b)];
      // Growing: B above A by more than the tolerance, and still climbing at over a quarter of A's
      // rate. A level that fell (memory handed back, a process's start-up peak passed) is flat.
      const within = lb - la <= Math.max(series.floor, TOLERANCE * la);
      const levelling = sb <= Math.max(0, sa) / 4;
      const flat = within || levelling;
      return {
        name: series.name,
        verdict: flat ? 'flat' : 'growing',
        detail: `${fmt(la, series.unit)} → ${fmt(lb, series.unit)}; slope ${fmt(sa * 60, `${series.unit}/h`)} then ${fmt(sb * 60, `${series.unit}/h`)}`,
        ok: flat,
      };
    }
    case 'chain-bytes': {
      const versionAt = (p: Point) => versions[minutes.indexOf(p.x)] ?? 0;
      const perVersion = (ps: readonly Point[]) => {
        const first = ps[0] as Point;
        const last = ps.at(-1) as Point;
        const dv = versionAt(last) - versionAt(first);
        return dv > 0 ? (last.y - first.y) / dv : 0;
      };
      const [pa, pb] = [perVersion(a), perVersion(b)];
      // What the table held per version when the run began (the initial chain's ingestion).
      const start = a[0] as Point;
      const before = versionAt(start) > 0 ? start.y / versionAt(start) : 0;
      const withChain = pb <= Math.max(1.5 * pa, series.floor) && pb <= Math.max(2 * before, series.floor);
      return {
        name: series.name,
        verdict: withChain ? 'with the chain' : 'faster than the chain',
        detail: `${fmt(before, `${series.unit}/version`)} at the start; ${fmt(pa, `${series.unit}/version`)} then ${fmt(pb, `${series.unit}/version`)} live`,
        ok: withChain,
      };
    }
    case 'delay': {
      const [la, lb] = [median(ys(a)), median(ys(b))];
      const bounded = lb <= 1.5 * la + series.floor;
      return {
        name: series.name,
        verdict: bounded ? 'bounded' : 'rising',
        detail: `median ${fmt(la, series.unit)} then ${fmt(lb, series.unit)}`,
        ok: bounded,
      };
    }
    case 'errors': {
      const total = (ps: readonly Point[]) => ps.reduce((s, p) => s + p.y, 0);
      const [ea, eb] = [total(a), total(b)];
      return {
        name: series.name,
        verdict: eb === 0 ? 'none' : 'some',
        detail: `${ea} then ${eb}`,
        ok: eb === 0,
      };
    }
    case 'held': {
      const target = series.target ?? 0;
      const points = [...a, ...b];
      const short = points.filter((p) => p.y < target);
      const lowest = short.reduce((low, p) => (p.y < low.y ? p : low), points[0] as Point);
      return {
        name: series.name,
        verdict: short.length === 0 ? `held at ${target}` : 'dropped',
        detail:
          short.length === 0
            ? `${points.length} samples after warm-up`
            : `${short.length} of ${points.length} samples below ${target}; lowest ${lowest.y} at ${lowest.x.toFixed(1)} min`,
        ok: short.length === 0,
      };
    }
  }
}
