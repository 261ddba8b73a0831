import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** Debian's Chromium, which .ci/run installs; MDQ_CHROMIUM points elsewhere. */
const CHROMIUM = process.env['MDQ_CHROMIUM'] ?? '/usr/bin/chromium';

/** Whether browser tests can run here; under CI=true a missing browser is an error, never a skip. */
export function chromiumAvailable(): boolean {
  const available = existsSync(CHROMIUM);
  if (!available && process.env['CI'] === 'true') throw new Error(`CI=true but no Chromium at ${CHROMIUM}`);
  return available;
}

/**
 * Headless, as root (no sandbox), and quiet on this machine's closed network: without the
 * background-networking flags Chromium keeps trying Google's hosts.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
