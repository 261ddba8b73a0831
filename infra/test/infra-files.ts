import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';

const INFRA = join(dirname(fileURLToPath(import.meta.url)), '..');
export const ROOT = join(INFRA, '..');

export const readText = (path: string): string => readFileSync(join(ROOT, path), 'utf8');
export const rootPackage = (): { version: string; packageManager: string } =>
  JSON.parse(readText('package.json'));

/** Every document of every infra/k8s/*.yaml, with the file it came from. */
export function k8sDocuments(): { file: string; doc: K8sObject }[] {
  const dir = join(INFRA, 'k8s');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .flatMap((file) =>
      parseAllDocuments(readFileSync(join(dir, file), 'utf8')).map((d) => {
        if (d.errors.length > 0) throw new Error(`${file}: ${d.errors[0]?.message}`);
        return { file, doc: d.toJS() as K8sObject };
      }),
    );
}

export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string };
  spec?: Record<string, unknown>;
  data?: Record<string, string>;
  stringData?: Record<string, string>;
}

/** The commands `mdq --help` lists, from the source (each role a manifest may start must be one). */
export function mdqCommands(): string[] {
  const help = execFileSync(process.execPath, ['--import', 'tsx', 'apps/cli/src/main.ts', '--help'], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '/root' },
  });
  const commands = help.split('Commands:')[1] ?? '';
  return [...commands.matchAll(/^ {2}([a-z][\w-]*)/gm)].map((m) => m[1] as string);
}
