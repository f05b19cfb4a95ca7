import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { createUser } from '@palisade/testing';
import { startSingleOrigin, type TSingleOrigin } from './support/single-origin';

// The verification page in a real browser: headless Chromium signs a person in, they approve
// (or deny), and the device's polling gets its answer. CI installs Chromium (apt-get install -y
// chromium); without it this test fails, it never skips.
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:device_code';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

interface TStarted {
  device_code: string;
  user_code: string;
  verification_uri_complete: string;
  interval: number;
}

describe('the device verification page in headless Chromium', () => {
  let origin: TSingleOrigin;
  let context: BrowserContext;
  let userDataDir: string;
  const problems: string[] = [];

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) {
      throw new Error(`Chromium is not installed at ${CHROMIUM}: run "apt-get install -y chromium" (or set CHROMIUM_PATH). This test does not skip.`);
    }
    origin = await startSingleOrigin({ DEVICE_POLL_INTERVAL_SECONDS: '1' });
    userDataDir = mkdtempSync(join(tmpdir(), 'palisade-chromium-'));
    // Playwright takes the profile directory itself (it refuses --user-data-dir in args).
    context = await chromium.launchPersistentContext(userDataDir, { executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  }, 60_000);

  afterAll(async () => {
    await context?.close();
    if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
    await origin?.close();
  });

  async function startDevice(): Promise<TStarted> {
    const res = await fetch(`${origin.baseUrl}/api/v2/auth/device/code`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ client_id: 'palisade-cli' }),
    });
    expect(res.status).toBe(200);
    return (await res.json()) as TStarted;
  }

  /** The device side: polls as RFC 8628 says until it gets tokens or a final refusal. */
  async function pollUntilDecided(started: TStarted): Promise<{ status: number; body: Record<string, unknown> }> {
    let interval = started.interval;
    for (let attempt = 0; attempt < 60; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, interval * 1000 + 50));
      const res = await fetch(`${origin.baseUrl}/api/v2/auth/device/token`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: GRANT_TYPE, device_code: started.device_code, client_id: 'palisade-cli' }),
      });
      const body = (await res.json()) as Record<string, unknown>;
      if (body.error === 'authorization_pending') continue;
      if (body.error === 'slow_down') {
        interval += 5;
        continue;
      }
      return { status: res.status, body };
    }
    throw new Error('the device was never approved or denied');
  }

  async function openPage(url: string) {
    const page = await context.newPage();
    // Failed loads are judged by their response below (the browser's own /favicon.ico probe is
    // a 404 by design); any other console error, such as a CSP violation, is a problem.
    page.on('console', (message) => {
      if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) problems.push(`console: ${message.text()}`);
    });
    page.on('response', (response) => {
      const path = new URL(response.url()).pathname;
      if (response.status() >= 400 && path !== '/favicon.ico') problems.push(`${response.status()} ${path}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    await page.goto(url);
    return page;
  }

  it('signs a person in, shows who asks for what, approves, and the polling device gets its token', async () => {
    const user = await createUser(origin.planes.db, { password: 'browser approval password' });
    const started = await startDevice();
    const polling = pollUntilDecided(started);

    const page = await openPage(started.verification_uri_complete);
    expect(await page.textContent('#user-code')).toBe(started.user_code);
    expect(await page.textContent('#client-name')).toBe('Palisade CLI');
    expect(await page.textContent('#scopes')).toContain('offline_access');

    await page.fill('input[name=email]', user.email);
    await page.fill('input[name=password]', user.password);
    await page.click('#sign-in button[type=submit]');
    await page.waitForSelector('#decide', { state: 'visible' });
    expect(await page.textContent('#who')).toBe(user.email);
    // The access token stays in the script's memory, never in storage the page could leak.
    expect(await page.evaluate('JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage })')).toBe('{}{}');

    await page.click('#approve');
    await page.waitForSelector('#status.done:has-text("Device approved")');

    const result = await polling;
    expect(result.status).toBe(200);
    expect(result.body).toMatchObject({ token_type: 'Bearer', access_token: expect.any(String), refresh_token: expect.any(String) });
    const me = await fetch(`${origin.baseUrl}/api/v2/me`, { headers: { Authorization: `Bearer ${String(result.body.access_token)}` } });
    expect(((await me.json()) as { principal: { id: string } }).principal.id).toBe(user.id);
    await page.close();
    expect(problems.splice(0)).toEqual([]);
  }, 60_000);

  it('lets a person type the code by hand and deny, and the device hears access_denied', async () => {
    const user = await createUser(origin.planes.db, { password: 'browser denial password' });
    const started = await startDevice();
    const polling = pollUntilDecided(started);

    const page = await openPage(`${origin.baseUrl}/api/v2/auth/device`);
    await page.fill('input[name=user_code]', started.user_code.toLowerCase().replace('-', ''));
    await page.click('#code-form button[type=submit]');
    await page.waitForSelector('#sign-in');
    expect(await page.textContent('#user-code')).toBe(started.user_code);

    await page.fill('input[name=email]', user.email);
    await page.fill('input[name=password]', 'not the password');
    await page.click('#sign-in button[type=submit]');
    await page.waitForSelector('#status.error');
    expect(await page.isVisible('#decide')).toBe(false);

    await page.fill('input[name=password]', user.password);
    await page.click('#sign-in button[type=submit]');
    await page.waitForSelector('#decide', { state: 'visible' });
    await page.click('#deny');
    await page.waitForSelector('#status.done:has-text("denied")');

    const result = await polling;
    expect(result).toMatchObject({ status: 400, body: { error: 'access_denied' } });
    await page.close();
    // The wrong password was the one refusal; nothing else may have failed.
    expect(problems.splice(0)).toEqual(['401 /api/v2/auth/login']);
  }, 60_000);
});
