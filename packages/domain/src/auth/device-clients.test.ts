import { AppError } from '../errors/app-error';
import { findDeviceClient, requireDeviceClient, resolveDeviceScopes } from './device-clients';
import { pollRefusal } from './device-grant';

describe('device-flow clients and scopes', () => {
  const cli = requireDeviceClient('palisade-cli');

  it('knows the CLI and nobody else, not even Object.prototype members', () => {
    expect(cli.name).toBe('Palisade CLI');
    expect(findDeviceClient('toString')).toBeUndefined();
    expect(() => requireDeviceClient('someone-else')).toThrow(expect.objectContaining({ code: 'invalid_client', status: 401 }));
  });

  it('grants the default scopes when none are asked for, and collapses duplicates', () => {
    expect(resolveDeviceScopes(cli, undefined)).toEqual(['api', 'offline_access']);
    expect(resolveDeviceScopes(cli, '')).toEqual(['api', 'offline_access']);
    expect(resolveDeviceScopes(cli, 'api api')).toEqual(['api']);
    expect(resolveDeviceScopes(cli, 'offline_access  api')).toEqual(['api', 'offline_access']);
  });

  it('refuses an unknown scope with invalid_scope', () => {
    let error: unknown;
    try {
      resolveDeviceScopes(cli, 'api admin');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'invalid_scope', status: 400, extra: { error: 'invalid_scope' } });
  });

  it('answers each poll outcome with the RFC 8628 error in `error`', () => {
    expect(pollRefusal({ kind: 'pending', intervalSeconds: 5 }).extra).toMatchObject({ error: 'authorization_pending', interval: 5 });
    expect(pollRefusal({ kind: 'slow_down', intervalSeconds: 10 }).extra).toMatchObject({ error: 'slow_down', interval: 10 });
    expect(pollRefusal({ kind: 'denied' }).extra).toMatchObject({ error: 'access_denied' });
    expect(pollRefusal({ kind: 'expired' }).extra).toMatchObject({ error: 'expired_token' });
    expect(pollRefusal({ kind: 'invalid', reason: 'redeemed' }).extra).toMatchObject({ error: 'invalid_grant' });
    for (const outcome of [{ kind: 'pending', intervalSeconds: 5 }, { kind: 'denied' }, { kind: 'expired' }] as const) {
      expect(pollRefusal(outcome).status).toBe(400);
    }
  });
});
