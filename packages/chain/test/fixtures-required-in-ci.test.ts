import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * #13 item 10: CI must not pass without the conformance suites. A real fixture suite is run in a
 * child vitest with its fixtures folder missing (`MDQ_FIXTURES_DIR` pointed at a path that does not
 * exist): under CI=true the run must fail naming the folder; without CI the suite skips.
 */
const packageDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const scratch = mkdtempSync(join(tmpdir(), 'mdq-no-fixtures-'));
const missing = join(scratch, 'missing-fixtures');

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface Run {
  code: number;
  output: string;
}

function runFixtureSuite(ci: boolean): Promise<Run> {
  const env: NodeJS.ProcessEnv = { NO_COLOR: '1', MDQ_FIXTURES_DIR: missing };
  for (const [key, value] of Object.entries(process.env)) {
    // The child is a fresh vitest run: none of this worker's own vitest, colour or CI settings.
    if (key.startsWith('VITEST') || key === 'FORCE_COLOR' || key === 'CI' || key in env) continue;
    env[key] = value;
  }
  if (ci) env['CI'] = 'true';
  return new Promise((done) => {
    execFile(
      join(packageDir, 'node_modules', '.bin', 'vitest'),
      ['run', '--reporter=verbose', 'test/fixtures-decode.test.ts'],
      { cwd: packageDir, env, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
        done({ code, output: `${stdout}\n${stderr}` });
      },
    );
  });
}

describe('a fixture suite without its fixtures folder', () => {
  it('fails the run under CI=true, naming the missing folder', async () => {
    const run = await runFixtureSuite(true);
    expect(run.code, run.output).not.toBe(0);
    expect(run.output).toContain(`CI=true but the fixtures folder ${missing} is missing`);
  }, 180_000);

  it('skips without CI', async () => {
    const run = await runFixtureSuite(false);
    expect(run.code, run.output).toBe(0);
    expect(run.output).toMatch(/skipped/);
    expect(run.output).not.toMatch(/\d+ passed/);
  }, 180_000);
});
