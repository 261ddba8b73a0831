import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../../..');

/* docs/SECURITY.md names a test for each OWASP API risk; each must exist under that name. */
describe('docs/SECURITY.md', () => {
  const doc = readFileSync(join(ROOT, 'docs/SECURITY.md'), 'utf8');
  const rows = doc.split('\n').filter((line) => /^\| API\d+ /.test(line));

  it('has one line per OWASP API Top 10 (2023) risk, each naming tests that exist', () => {
    expect(rows.map((row) => /^\| (API\d+) /.exec(row)?.[1])).toEqual(
      Array.from({ length: 10 }, (_, i) => `API${i + 1}`),
    );
    const missing: string[] = [];
    for (const row of rows) {
      const named = [...row.matchAll(/`([^`]+\.test\.ts)` › "([^"]+)"/g)];
      if (named.length === 0) missing.push(`${row.slice(0, 40)}: names no test`);
      for (const [, file = '', title = ''] of named) {
        const path = join(ROOT, file);
        if (!existsSync(path)) missing.push(`${file}: no such file`);
        else if (!readFileSync(path, 'utf8').includes(title)) missing.push(`${file}: no test "${title}"`);
      }
    }
    expect(missing).toEqual([]);
  });
});
