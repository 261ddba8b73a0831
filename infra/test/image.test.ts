import { validate } from 'dockerfile-utils';
import { describe, expect, it } from 'vitest';
import { readText, rootPackage } from './infra-files';

/*
 * infra/Dockerfile, linted (dockerfile-utils) and read for what the runtime needs: no container
 * runtime runs on these machines, so this is what is checked here; infra/README.md says what an
 * operator checks on theirs.
 */

const dockerfile = readText('infra/Dockerfile');
/** Instructions with their continuation lines joined, comments dropped. */
const instructions = dockerfile
  .replace(/\\\n/g, ' ')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l !== '' && !l.startsWith('#'));
const stages = instructions.reduce<string[][]>((acc, line) => {
  if (line.startsWith('FROM ')) acc.push([]);
  acc.at(-1)?.push(line);
  return acc;
}, []);
const runtime = stages.at(-1) ?? [];
const inRuntime = (keyword: string) => runtime.filter((l) => l.startsWith(`${keyword} `));

describe('infra/Dockerfile', () => {
  it('passes the linter', () => {
    expect(validate(dockerfile)).toEqual([]);
    // The linter is live: the same checks flag a broken file.
    expect(validate('FROM node:20\nWORKDIR app\nCMD ["a"]\nCMD ["b"]\n').length).toBeGreaterThan(0);
  });

  it('builds in one stage and runs from a second that copies only the release folder', () => {
    expect(stages.length).toBe(2);
    expect(stages[0]?.some((l) => /pnpm release \/release$/.test(l))).toBe(true);
    expect(inRuntime('COPY')).toEqual(['COPY --from=build /release /app']);
    expect(inRuntime('RUN').join(' ')).not.toMatch(/pnpm|npm install/);
  });

  it('runs node on the bundle as a non-root user, under tini, never pnpm or tsx', () => {
    const user = inRuntime('USER').at(-1) ?? '';
    expect(user).toMatch(/^USER [1-9]\d*:[1-9]\d*$/);
    const entrypoint = JSON.parse(
      (inRuntime('ENTRYPOINT').at(-1) ?? '').slice('ENTRYPOINT '.length),
    ) as string[];
    expect(entrypoint).toEqual(['/usr/bin/tini', '--', 'node', '--enable-source-maps', '/app/dist/mdq.js']);
    expect(dockerfile).not.toMatch(/tsx/);
    expect(inRuntime('CMD')).toEqual(['CMD ["api"]']);
  });

  it('has a HEALTHCHECK through `mdq healthcheck` and the OCI labels', () => {
    expect(inRuntime('HEALTHCHECK').at(-1)).toMatch(/CMD \["node", "\/app\/dist\/mdq\.js", "healthcheck"\]$/);
    const labels = inRuntime('LABEL').join(' ');
    for (const key of ['title', 'description', 'version', 'revision'])
      expect(labels).toContain(`org.opencontainers.image.${key}=`);
  });

  it('pins the pnpm of package.json and defaults the version label to package.json version', () => {
    const pkg = rootPackage();
    expect(dockerfile).toContain(`pnpm@${pkg.packageManager.split('@')[1]}`);
    expect(dockerfile).toContain(`ARG MDQ_VERSION=${pkg.version}\n`);
  });

  it('keeps host installs, builds and data out of the build context', () => {
    const ignored = readText('.dockerignore')
      .split('\n')
      .filter((l) => l !== '' && !l.startsWith('#'));
    for (const path of ['**/node_modules', '**/dist', '**/.data', '.git', 'release', 'bench/.out'])
      expect(ignored).toContain(path);
  });
});
