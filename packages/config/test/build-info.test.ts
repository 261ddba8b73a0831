import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { buildInfo } from '../src/build-info';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

it('run from source, names the root package.json version and the checked-out commit', () => {
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
  const commit = execFileSync('git', ['rev-parse', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
  expect(buildInfo()).toEqual({ version, commit });
});
