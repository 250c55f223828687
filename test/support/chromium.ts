import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/**
 * Headless Chromium for tests that look at rendered HTML: the system's Debian `chromium`
 * (never a downloaded browser), sandbox off (root in CI), and every background network
 * feature off so a page can only load what it embeds.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function chromiumAvailable(): boolean {
  return existsSync(CHROMIUM_PATH);
}

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}
