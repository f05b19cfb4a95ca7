import type { TDeviceCodeResponse, TDeviceTokenResponse } from '@palisade/contracts';
import type { PalisadeClient, TDevicePollResult } from '@palisade/sdk';
import { CliError } from '../cli-error';

/** The client id the service registers for this CLI. */
export const CLI_CLIENT_ID = 'palisade-cli';

// RFC 8628 section 3.5: without an interval the client waits 5 s, and slow_down adds 5 s for
// this and every later request.
const DEFAULT_INTERVAL_SECONDS = 5;
const SLOW_DOWN_STEP_SECONDS = 5;

export interface TDeviceLoginOptions {
  api: Pick<PalisadeClient, 'startDeviceAuthorization' | 'pollDeviceToken'>;
  clientId?: string;
  scope?: string;
  /** Told the codes once, to show the person where to approve. */
  onCode(code: TDeviceCodeResponse): void;
  /** Told every poll's answer and the interval that follows it. */
  onPoll?(result: TDevicePollResult, nextIntervalSeconds: number): void;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The device authorization grant from the device's side: start, show the code, poll at the
 * server's pace until the person decides. Resolves to the tokens; a denial or an expired code
 * is a CliError naming the RFC error.
 */
export async function runDeviceLogin(options: TDeviceLoginOptions): Promise<TDeviceTokenResponse> {
  const { api, clientId = CLI_CLIENT_ID, sleep = realSleep, now = Date.now } = options;
  const code = await api.startDeviceAuthorization(clientId, options.scope);
  options.onCode(code);
  const expiresAt = now() + code.expires_in * 1000;
  let interval = code.interval > 0 ? code.interval : DEFAULT_INTERVAL_SECONDS;

  for (;;) {
    // The first poll waits too: the person cannot have approved yet, and polling at once
    // would only earn a slow_down.
    await sleep(interval * 1000);
    const result = await api.pollDeviceToken(code.device_code, clientId);
    if (!result.ok && result.error === 'slow_down') {
      // Whichever is longer: our own +5 s, or the interval the server says it now enforces.
      interval = Math.max(interval + SLOW_DOWN_STEP_SECONDS, result.interval ?? 0);
    }
    options.onPoll?.(result, interval);
    if (result.ok) return result.tokens;
    if (result.error === 'access_denied') {
      throw new CliError('access_denied: the sign-in was denied on the verification page; run `palisade login --device` to try again');
    }
    if (result.error === 'expired_token' || now() >= expiresAt) {
      throw new CliError('expired_token: the code expired before anyone approved it; run `palisade login --device` for a new one');
    }
  }
}
