import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readFixtureJson } from '../../src/fixtures/index';

export type Row = Record<string, unknown>;

export function readRows(root: string, dir: string, table: string): Row[] {
  const file = join(dir, `${table}.json`);
  if (!existsSync(join(root, file))) return [];
  const rows = readFixtureJson(file, root);
  return Array.isArray(rows) ? (rows as Row[]) : [];
}

export function testDirs(root: string, base: string): string[] {
  const dirs: string[] = [];
  const walk = (dir: string): void => {
    const entries = readdirSync(join(root, dir), { withFileTypes: true });
    if (entries.some((entry) => entry.isFile() && entry.name.endsWith('.json'))) dirs.push(dir);
    for (const entry of entries) if (entry.isDirectory()) walk(join(dir, entry.name));
  };
  walk(base);
  return dirs.sort();
}
