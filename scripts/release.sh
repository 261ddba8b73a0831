#!/usr/bin/env bash
# `pnpm release [DIR]` (default ./release): the folder production runs, and the only thing the
# image's runtime stage copies.
#   DIR/package.json   name, version, "bin": { "mdq": "dist/mdq.js" }, no scripts, no dependencies list
#   DIR/dist/          the bundled `mdq` (apps/cli/scripts/build.ts) with its source maps
#   DIR/node_modules/  the production dependencies of @mdq/cli and of every workspace package it
#                      bundles, at the lockfile's versions, hoisted flat so dist/ resolves them
#   DIR/pnpm-lock.yaml the shared lockfile cut down to those dependencies
# Run it as `node --enable-source-maps DIR/dist/mdq.js <command>` (or `DIR/dist/mdq.js <command>`).
# MDQ_COMMIT names the commit when there is no .git (an image build); else `git rev-parse HEAD`.
set -euo pipefail
cd "$(dirname "$0")/.."
out="$(realpath -m "${1:-release}")"

pnpm --filter @mdq/cli run build
rm -rf "$out"
# pnpm 10 deploys from the shared lockfile only with inject-workspace-packages, set here for this
# command alone (set in the workspace, it would change how every package is linked in development);
# --legacy would resolve the versions afresh instead of taking the lockfile's. node-linker=hoisted
# lays the dependencies of the bundled workspace packages out at the top of node_modules, where
# dist/ finds them; --prod leaves every devDependency out.
pnpm --config.inject-workspace-packages=true --filter @mdq/cli deploy --prod --config.node-linker=hoisted "$out" >/dev/null
# The workspace packages are in the bundle; their TypeScript copies are not needed at run time.
rm -rf "$out/node_modules/@mdq" "$out/node_modules/.bin"
node -e '
  const { readFileSync, writeFileSync } = require("node:fs");
  const root = JSON.parse(readFileSync("package.json", "utf8"));
  const cli = JSON.parse(readFileSync("apps/cli/package.json", "utf8"));
  const release = {
    name: "mdq",
    version: root.version,
    private: true,
    description: "mdq release: node --enable-source-maps dist/mdq.js <command>",
    type: "module",
    bin: { mdq: "dist/mdq.js" },
    engines: root.engines,
    files: cli.files,
  };
  writeFileSync(process.argv[1], JSON.stringify(release, null, 2) + "\n");
' "$out/package.json"
echo "release: $out ($(du -sh "$out" | cut -f1))"
