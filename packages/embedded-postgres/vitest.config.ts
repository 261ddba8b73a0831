import { defineConfig } from 'vitest/config';

// Starting an embedded Postgres (a first start unpacks its binaries) takes a while on a loaded machine.
// The global setup finds the Postgres the other tests use (this package's own embedded one when none answers).
export default defineConfig({
  test: { globalSetup: ['./src/test-server.ts'], testTimeout: 240_000, hookTimeout: 240_000 },
});
