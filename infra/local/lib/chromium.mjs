// Debian's Chromium, which the device-flow browser test drives through playwright-core. Nothing
// downloads a browser of its own: playwright-core is pointed at this binary (CHROMIUM_PATH).
import { existsSync } from 'node:fs';
import { ensureBinary } from './apt.mjs';
import { which } from './shell.mjs';

export function findChromium() {
  if (process.env.CHROMIUM_PATH && existsSync(process.env.CHROMIUM_PATH)) return process.env.CHROMIUM_PATH;
  return which('chromium');
}

export function ensureChromium({ ui }) {
  return ensureBinary({ find: findChromium, pkg: 'chromium', why: 'Chromium is not installed (the device-approval page is tested in it)', ui });
}
