import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The OS identity Postgres runs as: none (this process's own) unless mdq runs as root. */
export interface RunAs {
  uid: number;
  gid: number;
  name: string;
}

const POSTGRES_OS_USER = 'postgres';

export function isRoot(): boolean {
  return process.getuid?.() === 0;
}

/**
 * Postgres refuses to run as root, so as root it runs as the OS user `postgres`, created (a system
 * user with no login shell) when the machine has none.
 */
export async function postgresOsUser(): Promise<RunAs> {
  const found = await lookup(POSTGRES_OS_USER);
  if (found) return found;
  await run('useradd', [
    '--system',
    '--user-group',
    '--no-create-home',
    '--shell',
    '/usr/sbin/nologin',
    POSTGRES_OS_USER,
  ]).catch((error: unknown) => {
    throw new Error(`could not create the OS user ${POSTGRES_OS_USER} (${firstLine(error)})`);
  });
  const created = await lookup(POSTGRES_OS_USER);
  if (!created) throw new Error(`the OS user ${POSTGRES_OS_USER} was created but cannot be found`);
  return created;
}

async function lookup(name: string): Promise<RunAs | null> {
  try {
    const [uid, gid] = await Promise.all([run('id', ['-u', name]), run('id', ['-g', name])]);
    return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()), name };
  } catch {
    return null;
  }
}

/**
 * Whether `user` may do `test <flags> path` — asked of the kernel as that user (the same uid/gid
 * and no supplementary groups, exactly as Postgres is spawned), so modes, owners and ACLs of every
 * parent folder count.
 */
export function canAccess(user: RunAs, path: string, flags: string[]): Promise<boolean> {
  const script = flags.map((flag, i) => `test ${flag} "$${i + 1}"`).join(' && ');
  return new Promise((resolve) => {
    const child = spawn('/bin/sh', ['-c', script, 'probe', ...flags.map(() => path)], {
      uid: user.uid,
      gid: user.gid,
      stdio: 'ignore',
    });
    child.on('error', () => resolve(false));
    child.on('close', (code) => resolve(code === 0));
  });
}

export function firstLine(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return (
    text
      .split('\n')
      .map((line) => line.trim())
      .find((line) => line.length > 0) ?? 'unknown error'
  );
}
