import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './run-cli';

/*
 * A data folder the embedded Postgres cannot be created in (its parent is a regular file, which
 * stops root as well as anyone else): `start` and `migrate`, the commands that start the embedded
 * database, end with one line that says what failed and what to do, and a non-zero exit code.
 */
describe('an embedded database that cannot start', () => {
  const parent = mkdtempSync(join(tmpdir(), 'mdq-unwritable-'));
  const file = join(parent, 'a-file');
  writeFileSync(file, '');
  afterAll(() => rmSync(parent, { recursive: true, force: true }));

  it.each([['start'], ['migrate']])('mdq %s says so in one line and exits 1', async (command) => {
    const result = await runCli([command], {
      MDQ_DATA_DIR: join(file, 'data'),
      PORT: '0',
      MDQ_DEVNET_PORT: '0',
    });
    expect(result.code).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines, result.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^mdq: the embedded Postgres did not start: .*ENOTDIR.* — set DATABASE_URL to a Postgres you run, or MDQ_DATA_DIR to a folder this user can write$/,
    );
    expect(result.stdout).not.toMatch(/Error|\n\s+at /);
  });
});
