import { randomBytes } from 'node:crypto';
import { ConfigError, loadConfig, parseTrustProxy, ZBaseEnv } from './env';

const BASE = {
  PORT: '0',
  DATABASE_URL: 'postgresql://localhost/x',
  REDIS_URL: 'redis://localhost:6379',
  KEY_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
};

describe('TRUST_PROXY', () => {
  it('defaults to loopback, the edge of npm start on the same host', () => {
    expect(loadConfig(ZBaseEnv, BASE).TRUST_PROXY).toEqual(['loopback']);
  });

  it('takes a hop count as a number', () => {
    expect(loadConfig(ZBaseEnv, { ...BASE, TRUST_PROXY: '1' }).TRUST_PROXY).toBe(1);
    expect(parseTrustProxy('0')).toEqual({ ok: true, value: 0 });
  });

  it('takes true and false', () => {
    expect(parseTrustProxy('false')).toEqual({ ok: true, value: false });
    expect(parseTrustProxy('true')).toEqual({ ok: true, value: true });
  });

  it('takes a comma list of names, addresses and CIDRs', () => {
    expect(loadConfig(ZBaseEnv, { ...BASE, TRUST_PROXY: 'uniquelocal' }).TRUST_PROXY).toEqual(['uniquelocal']);
    expect(parseTrustProxy(' loopback, 10.0.0.0/8 ,172.16.0.0/12, 192.168.1.7, fd00::/8, ::1, 10.1.0.0/255.255.0.0')).toEqual({
      ok: true,
      value: ['loopback', '10.0.0.0/8', '172.16.0.0/12', '192.168.1.7', 'fd00::/8', '::1', '10.1.0.0/255.255.0.0'],
    });
  });

  it('refuses at boot what Express would misread, naming the bad entries', () => {
    for (const bad of ['', ' , ', 'everyone', '10.0.0.0/33', 'fd00::/129', '10.0.0/8', 'loopback,example.com', '-1', '1.5', '99', 'fd00::/255.0.0.0']) {
      expect(parseTrustProxy(bad).ok).toBe(false);
    }
    expect(() => loadConfig(ZBaseEnv, { ...BASE, TRUST_PROXY: 'loopback, proxy.internal' })).toThrow(ConfigError);
    try {
      loadConfig(ZBaseEnv, { ...BASE, TRUST_PROXY: 'loopback, proxy.internal' });
    } catch (error) {
      expect((error as ConfigError).problems).toEqual([expect.stringMatching(/^TRUST_PROXY: .*proxy\.internal/)]);
    }
  });
});

describe('OPENAPI_ENABLED', () => {
  it('is off unless set to true', () => {
    expect(loadConfig(ZBaseEnv, BASE).OPENAPI_ENABLED).toBe(false);
    expect(loadConfig(ZBaseEnv, { ...BASE, OPENAPI_ENABLED: 'false' }).OPENAPI_ENABLED).toBe(false);
    expect(loadConfig(ZBaseEnv, { ...BASE, OPENAPI_ENABLED: 'true' }).OPENAPI_ENABLED).toBe(true);
    expect(() => loadConfig(ZBaseEnv, { ...BASE, OPENAPI_ENABLED: 'on' })).toThrow(ConfigError);
  });
});
