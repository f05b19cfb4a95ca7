import type { AxiosResponse } from 'axios';
import { PalisadeApiError } from './api-error';
import { readDevicePollResponse } from './device-flow';

const answer = (status: number, data: unknown) => ({ status, data, headers: {} }) as AxiosResponse;

describe('readDevicePollResponse', () => {
  it('returns the tokens of a 200', () => {
    const tokens = { access_token: 'at', token_type: 'Bearer', expires_in: 900 };
    expect(readDevicePollResponse(answer(200, tokens))).toEqual({ ok: true, tokens });
  });

  it('returns the RFC 8628 polling errors instead of throwing, with the interval the server now expects', () => {
    expect(
      readDevicePollResponse(answer(400, { error: 'authorization_pending', error_code: 'authorization_pending', interval: 5 })),
    ).toEqual({
      ok: false,
      error: 'authorization_pending',
      interval: 5,
    });
    expect(readDevicePollResponse(answer(400, { error: 'slow_down', error_description: 'Poll less often', interval: 10 }))).toEqual({
      ok: false,
      error: 'slow_down',
      error_description: 'Poll less often',
      interval: 10,
    });
    for (const error of ['access_denied', 'expired_token']) {
      expect(readDevicePollResponse(answer(400, { error }))).toEqual({ ok: false, error });
    }
  });

  it('throws a PalisadeApiError for any other refusal', () => {
    const invalidGrant = () =>
      readDevicePollResponse(answer(400, { error: 'invalid_grant', error_code: 'invalid_grant', message: 'Unknown device code' }));
    expect(invalidGrant).toThrow(PalisadeApiError);
    expect(invalidGrant).toThrow('Unknown device code');
    expect(() => readDevicePollResponse(answer(401, { error: 'invalid_client', error_code: 'invalid_client' }))).toThrow(PalisadeApiError);
    expect(() => readDevicePollResponse(answer(502, '<html>bad gateway</html>'))).toThrow(PalisadeApiError);
  });
});
