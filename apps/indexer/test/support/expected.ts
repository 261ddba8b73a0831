import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isAddress, normalizeAddress } from '@mdq/chain';

/** One official expected-output folder and the mainnet versions it ran, in order. */
export interface ExpectedCase {
  processor: 'token_v2_processor' | 'nft_aggregator';
  name: string;
  dir: string;
  versions: number[];
}

/** The test→transactions table of the fixtures README §4, read from fixtures-index.json. */
export function expectedCases(root: string): ExpectedCase[] {
  const index = JSON.parse(readFileSync(join(root, 'fixtures-index.json'), 'utf8')) as unknown;
  const files = collectFiles(index);
  const byDir = new Map<string, { version: number; order: number }[]>();
  for (const file of files) {
    file.expected.forEach((dir) => {
      const list = byDir.get(dir) ?? [];
      list.push({ version: file.version, order: list.length });
      byDir.set(dir, list);
    });
  }
  const cases: ExpectedCase[] = [];
  for (const processor of ['token_v2_processor', 'nft_aggregator'] as const) {
    for (const dir of listCaseDirs(join(root, 'expected', processor))) {
      const rel = `${processor}/${dir}`;
      const versions = SEQUENCES[rel] ?? (byDir.get(rel) ?? []).map((v) => v.version).sort((a, b) => a - b);
      cases.push({ processor, name: dir, dir: join(root, 'expected', processor, dir), versions });
    }
  }
  return cases;
}

/** Sequences whose order is not version order (README §4 lists them explicitly). */
const SEQUENCES: Record<string, number[]> = {
  'nft_aggregator/wapal/wapal_place_offer_and_cancel_offer_test': [2382313982, 2381810159],
  'nft_aggregator/tradeport_v2/sequential_two_tradeport_v2_accept_token_delist_events_test': [
    2296149225, 2296098846,
  ],
  'nft_aggregator/tradeport_v2/sequential_two_tradeport_v2_accept_token_delist_events_same_token_data_id_test':
    [2296098846, 2277018899],
};

function listCaseDirs(base: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(base, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const inner = readdirSync(join(base, entry.name), { withFileTypes: true });
    if (inner.some((e) => e.isFile() && e.name.endsWith('.json'))) out.push(entry.name);
    else for (const sub of inner) if (sub.isDirectory()) out.push(`${entry.name}/${sub.name}`);
  }
  return out.sort();
}

function collectFiles(index: unknown): { version: number; expected: string[] }[] {
  const transactions = (index as { transactions?: { version: string; expected_outputs?: string[] }[] })
    .transactions;
  return (transactions ?? []).map((t) => ({
    version: Number(t.version),
    expected: (t.expected_outputs ?? []).map((dir) => dir.replace(/^expected\//, '')),
  }));
}

export function readExpected(dir: string, table: string): Record<string, unknown>[] {
  try {
    return JSON.parse(readFileSync(join(dir, `${table}.json`), 'utf8')) as Record<string, unknown>[];
  } catch {
    return [];
  }
}

/** Comparable form: addresses long, numbers as decimal strings, nulls kept. */
export function norm(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  const s = String(value);
  if (s.startsWith('0x') && isAddress(s)) return normalizeAddress(s);
  return s;
}
