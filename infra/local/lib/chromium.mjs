// Debian's Chromium, which the device-flow browser test drives through playwright-core. Nothing
// downloads a browser of its own: playwright-core is pointed at this binary (CHROMIUM_PATH).
import { existsSync } from 'node:fs';
import { aptInstall } from './apt.mjs';
import { which } from './shell.mjs';

export function findChromium() {
  if (process.env.CHROMIUM_PATH && existsSync(process.env.CHROMIUM_PATH)) return process.env.CHROMIUM_PATH;
  return which('chromium');
}

export async function ensureChromium({ ui }) {
  let binary = findChromium();
  if (!binary) {
    await aptInstall(['chromium'], { ui, why: 'Chromium is not installed (the device-approval page is tested in it)' });
    binary = findChromium();
    if (!binary) throw new Error('apt-get installed chromium but it is not on PATH');
  }
  return binary;
}
