import { defineConfig } from 'vitest/config';

// Tests talk to real Postgres, Redis and devnet servers; on a loaded 2-core CI machine a test that
// pages a whole chain through the API can take tens of seconds, so the limits are generous.
// The global setup finds the Postgres the tests use (an embedded one when none answers).
export default defineConfig({
  test: {
    globalSetup: ['../../packages/embedded-postgres/src/test-server.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Two files at a time: much of a file's time is waiting (a process starting, a devnet advancing, a
    // stream filling), and one at a time (vitest's default on two cores) left a core idle: this suite
    // alone took 340 s one file at a time and 199 s two at a time.
    maxWorkers: 2,
    minWorkers: 1,
    // Files share their worker's modules instead of loading the app afresh each: loading took
    // 466 s of this suite's 760 s in CI on a slow machine, 22 s without isolation. The tests
    // mock nothing and every file makes its own app, database and devnet, so nothing is shared
    // but loaded code; what isolation hid were two process-wide states, both mended (the SDK's
    // ledger-info cache in the fullnode source, a closing pool's metrics name).
    isolate: false,
  },
});
