import type { TDeviceCodeResponse } from '@palisade/contracts';
import type { TDevicePollResult } from '@palisade/sdk';
import { CliError } from '../cli-error';
import { runDeviceLogin } from './device-login.flow';

const CODE: TDeviceCodeResponse = {
  device_code: 'device-code',
  user_code: 'BCDF-GHJK',
  verification_uri: 'https://palisade.test/api/v2/auth/device',
  verification_uri_complete: 'https://palisade.test/api/v2/auth/device?user_code=BCDF-GHJK',
  expires_in: 600,
  interval: 1,
};
const TOKENS: TDevicePollResult = { ok: true, tokens: { access_token: 'at', token_type: 'Bearer', expires_in: 900 } };
const pending: TDevicePollResult = { ok: false, error: 'authorization_pending' };

/** A fake server answering the polls in order, and a clock that moves only when the flow sleeps. */
function harness(answers: TDevicePollResult[], code = CODE) {
  let clock = 0;
  const sleeps: number[] = [];
  const polls: string[] = [];
  const api = {
    startDeviceAuthorization: jest.fn(async () => code),
    pollDeviceToken: jest.fn(async (deviceCode: string) => {
      polls.push(deviceCode);
      return answers.shift() ?? pending;
    }),
  };
  const run = () =>
    runDeviceLogin({
      api,
      onCode: () => undefined,
      sleep: async (ms) => {
        sleeps.push(ms);
        clock += ms;
      },
      now: () => clock,
    });
  return { api, run, sleeps, polls };
}

describe('runDeviceLogin', () => {
  it('polls at the given interval until approved and returns the tokens', async () => {
    const h = harness([pending, pending, TOKENS]);
    await expect(h.run()).resolves.toEqual(TOKENS.ok && TOKENS.tokens);
    expect(h.sleeps).toEqual([1000, 1000, 1000]);
    expect(h.polls).toEqual(['device-code', 'device-code', 'device-code']);
    expect(h.api.startDeviceAuthorization).toHaveBeenCalledWith('palisade-cli', undefined);
  });

  it('adds 5 seconds on slow_down and keeps the longer interval for every later poll', async () => {
    const h = harness([pending, { ok: false, error: 'slow_down' }, pending, TOKENS]);
    await h.run();
    expect(h.sleeps).toEqual([1000, 1000, 6000, 6000]);
  });

  it('follows the server when its slow_down interval is longer than its own +5 s', async () => {
    const h = harness([{ ok: false, error: 'slow_down', interval: 11 }, TOKENS]);
    await h.run();
    expect(h.sleeps).toEqual([1000, 11000]);
  });

  it('stops with access_denied when the person denies', async () => {
    const h = harness([pending, { ok: false, error: 'access_denied' }]);
    const error = await h.run().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CliError);
    expect((error as CliError).message).toMatch(/^access_denied: /);
    expect((error as CliError).exitCode).toBe(1);
  });

  it('stops with expired_token when the server says so, or when the code outlives expires_in unanswered', async () => {
    await expect(harness([{ ok: false, error: 'expired_token' }]).run()).rejects.toThrow(/^expired_token: /);
    const h = harness([], { ...CODE, expires_in: 3, interval: 1 });
    await expect(h.run()).rejects.toThrow(/^expired_token: /);
    expect(h.polls).toHaveLength(3);
  });

  it('waits 5 seconds between polls when the server gives no interval', async () => {
    const h = harness([TOKENS], { ...CODE, interval: 0 });
    await h.run();
    expect(h.sleeps).toEqual([5000]);
  });
});
