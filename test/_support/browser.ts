import { existsSync } from 'node:fs';
import test from 'ava';
import { type Browser, chromium } from 'playwright-core';
import { skipAll } from './skip.js';

/** Debian's chromium (`apt-get install chromium`; .ci/run installs it when missing). */
export const CHROMIUM_PATH = process.env.KEYGATE_CHROMIUM ?? '/usr/bin/chromium';

/**
 * Headless, and quiet on a closed network: no QUIC, no first-run, no background, component-update
 * or sync traffic. Playwright gives each launch a fresh temporary --user-data-dir of its own (it
 * refuses one passed in `args`), deleted when the browser closes.
 */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export type Launched =
  | { readonly browser: Browser; readonly reason?: undefined }
  | { readonly browser?: undefined; readonly reason: string };

/** One browser for a whole test file, or the reason there is none (the caller skips, saying so). */
export async function launchChromium(): Promise<Launched> {
  if (!existsSync(CHROMIUM_PATH)) return { reason: `${CHROMIUM_PATH} not found (install Debian's chromium package)` };
  try {
    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true, timeout: 30_000 });
    return { browser };
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    return { reason: `chromium at ${CHROMIUM_PATH} did not start: ${message}` };
  }
}

/**
 * Declares a file's browser tests on one Chromium, closed once they have run; without Chromium, one
 * skipped test (`what`) says why (see skip.ts).
 */
export async function withChromium(what: string, declare: (browser: Browser) => void): Promise<void> {
  const launched = await launchChromium();
  if (launched.browser === undefined) {
    skipAll(what, launched.reason);
    return;
  }
  const browser = launched.browser;
  test.after.always(() => browser.close());
  declare(browser);
}
