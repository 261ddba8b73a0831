import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { protoToRest } from '@mdq/chain/fixtures';
import type { RestTransaction } from '../render/rest-types';

export interface RecordedTransaction {
  version: number;
  /** From the proto's blockHeight / epoch (REST transactions do not carry them); null when unknown. */
  blockHeight: number | null;
  epoch: number | null;
  tx: RestTransaction;
  file: string;
}

function listJsonFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...listJsonFiles(path));
    else if (name.endsWith('.json')) out.push(path);
  }
  return out;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const num = (v: unknown): number | null =>
  typeof v === 'string' || typeof v === 'number' ? Number(v) : null;

/**
 * Loads every transaction JSON under `dir` (recursively): proto-JSON fixtures are converted with
 * @mdq/chain's protoToRest, REST-form files are served as they are. Files that hold no transaction
 * (e.g. an index file) are skipped; duplicates keep the first file (sorted path order).
 */
export function loadRecorded(dir: string): { transactions: RecordedTransaction[]; skipped: string[] } {
  const byVersion = new Map<number, RecordedTransaction>();
  const skipped: string[] = [];
  for (const file of listJsonFiles(dir)) {
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      skipped.push(file);
      continue;
    }
    if (!isRecord(raw) || raw['version'] === undefined || raw['type'] === undefined) {
      skipped.push(file);
      continue;
    }
    const isProto = typeof raw['type'] === 'string' && raw['type'].startsWith('TRANSACTION_TYPE_');
    const tx = (isProto ? protoToRest(raw) : raw) as RestTransaction;
    const version = Number(raw['version']);
    if (!Number.isSafeInteger(version) || byVersion.has(version)) {
      skipped.push(file);
      continue;
    }
    byVersion.set(version, {
      version,
      blockHeight: isProto ? num(raw['blockHeight']) : null,
      epoch: isProto ? num(raw['epoch']) : null,
      tx,
      file,
    });
  }
  const transactions = [...byVersion.values()].sort((a, b) => a.version - b.version);
  return { transactions, skipped };
}
