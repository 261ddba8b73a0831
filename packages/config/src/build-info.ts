import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Which mdq this is: `mdq --version` prints it, `/health` answers it. */
export interface BuildInfo {
  /** The version of the root package.json. */
  version: string;
  /** The git commit built, or 'unknown' (a source tree without git). */
  commit: string;
}

// Stamped by the release build (apps/cli/scripts/build.ts, esbuild `define`); absent from source.
declare const MDQ_BUILD: BuildInfo | undefined;

let cached: BuildInfo | undefined;

/** The stamp of a built release; run from source, the root package.json and `git rev-parse HEAD`. */
export function buildInfo(): BuildInfo {
  cached ??= typeof MDQ_BUILD === 'undefined' ? fromSource() : MDQ_BUILD;
  return cached;
}

function fromSource(): BuildInfo {
  const root = repositoryRoot(dirname(fileURLToPath(import.meta.url)));
  if (root === null) return { version: 'unknown', commit: 'unknown' };
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version?: string };
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['rev-parse', 'HEAD'], {
      cwd: root,
      encoding: 'utf8',
      stdio: 'pipe',
    }).trim();
  } catch {
    // not a git checkout, or no git installed
  }
  return { version: version ?? 'unknown', commit };
}

/** The nearest folder above `from` holding pnpm-workspace.yaml: the repository's root. */
function repositoryRoot(from: string): string | null {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'pnpm-workspace.yaml'))) return dir;
    if (dirname(dir) === dir) return null;
  }
}
