/**
 * Where the machine's CPU went during a measured row, in cores (CPU seconds ÷ wall seconds): each
 * process the bench started, with its children, each group of Postgres backends by their
 * `application_name` (the API's pools, the indexer's and worker's connections), and the machine as a
 * whole. On two cores the API shares them with its own database work, the indexer's and the worker's,
 * the devnet and the load generator; a figure of the API alone cannot say which of those took them.
 * Read from /proc (Linux) and pg_stat_activity; elsewhere the reading is empty.
 */
import { readdir, readFile } from 'node:fs/promises';
import { type Db, sql } from '@mdq/db';

export interface CpuReading {
  /** Wall clock, ms. */
  at: number;
  /** CPU seconds so far, by group. */
  seconds: Map<string, number>;
  /** The machine's busy CPU seconds so far (every mode but idle and iowait), and its cores. */
  machine: number;
  cores: number;
}

// USER_HZ, the unit of /proc's CPU times: 100 on every Linux the kernel's ABI allows.
const TICKS_PER_SECOND = 100;

/** utime + stime and parent of every live process, from /proc/<pid>/stat. */
async function processTimes(): Promise<Map<number, { parent: number; seconds: number }>> {
  const out = new Map<number, { parent: number; seconds: number }>();
  let entries: string[];
  try {
    entries = await readdir('/proc');
  } catch {
    return out;
  }
  await Promise.all(
    entries
      .filter((e) => /^\d+$/.test(e))
      .map(async (pid) => {
        try {
          const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
          // The command name (2nd field) may hold spaces: the fields after its closing parenthesis.
          const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
          const parent = Number(fields[1]);
          const seconds = (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
          out.set(Number(pid), { parent, seconds });
        } catch {
          // Exited while read.
        }
      }),
  );
  return out;
}

async function machineBusy(): Promise<{ seconds: number; cores: number }> {
  try {
    const stat = await readFile('/proc/stat', 'utf8');
    const lines = stat.split('\n');
    // cpu  user nice system idle iowait irq softirq steal guest guest_nice (guest is inside user)
    const total = (lines[0] ?? '').trim().split(/\s+/).slice(1, 9).map(Number);
    const busy = total.reduce((sum, n, i) => (i === 3 || i === 4 ? sum : sum + n), 0);
    const cores = lines.filter((l) => /^cpu\d/.test(l)).length;
    return { seconds: busy / TICKS_PER_SECOND, cores };
  } catch {
    return { seconds: 0, cores: 0 };
  }
}

/**
 * One reading: `roots` (a name for each process the bench started, with its descendants), this
 * process alone as `self` (it starts the others: its tree is all of them), and the backends of
 * `database` by application name (`postgres: <name>`).
 */
export async function readCpu(
  db: Db,
  database: string,
  roots: Record<string, number | undefined>,
  self: string,
): Promise<CpuReading> {
  const at = Date.now();
  const [times, machine, backends] = await Promise.all([
    processTimes(),
    machineBusy(),
    sql<{ pid: number; name: string }>`
      SELECT pid, coalesce(nullif(application_name, ''), 'unnamed') AS name
        FROM pg_stat_activity WHERE datname = ${database}`
      .execute(db)
      .then((r) => r.rows),
  ]);
  const children = new Map<number, number[]>();
  for (const [pid, { parent }] of times) {
    const siblings = children.get(parent);
    if (siblings) siblings.push(pid);
    else children.set(parent, [pid]);
  }
  const treeSeconds = (pid: number): number =>
    (times.get(pid)?.seconds ?? 0) + (children.get(pid) ?? []).reduce((sum, c) => sum + treeSeconds(c), 0);
  const seconds = new Map<string, number>();
  for (const [name, pid] of Object.entries(roots)) if (pid !== undefined) seconds.set(name, treeSeconds(pid));
  seconds.set(self, times.get(process.pid)?.seconds ?? 0);
  for (const b of backends) {
    const key = `postgres: ${b.name}`;
    seconds.set(key, (seconds.get(key) ?? 0) + (times.get(b.pid)?.seconds ?? 0));
  }
  return { at, seconds, machine: machine.seconds, cores: machine.cores };
}

/**
 * The cores each group used between two readings, busiest first, and the machine's. A backend that
 * ended between them is not counted (the pools keep theirs), so the groups can sum to less.
 */
export function cpuShares(before: CpuReading, after: CpuReading): string {
  const wall = (after.at - before.at) / 1000;
  if (wall <= 0 || after.cores === 0) return 'cores: not read (no /proc)';
  const groups = [...after.seconds]
    .map(([name, s]) => [name, (s - (before.seconds.get(name) ?? 0)) / wall] as const)
    .filter(([, cores]) => cores >= 0.01)
    .sort((a, b) => b[1] - a[1]);
  const machine = (after.machine - before.machine) / wall;
  return `cores: ${groups.map(([name, c]) => `${name} ${c.toFixed(2)}`).join(', ')}; machine ${machine.toFixed(2)} of ${after.cores}`;
}
