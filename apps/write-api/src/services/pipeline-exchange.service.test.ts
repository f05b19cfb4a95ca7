// The exchange against a real loopback issuer (JWKS over HTTP, jose-signed tokens), with the
// database stood in by arrays: key rotation and the JWKS cooldown are about timing, which the
// API tests cannot steer.
import { startLocalOidcIssuer, type TLocalIssuer } from '../../test/support/local-oidc-issuer';
import { makePipelineExchangeService, type TJwksOptions } from './pipeline-exchange.service';

const ORG = '0190d6a2-6a86-7c3e-9d0a-3f4b2c1d0e9f';
const AUDIENCE = 'https://palisade.test/acme';
const SUBJECT = 'repo:acme/api:ref:refs/heads/main';

describe('pipeline exchange service', () => {
  let issuer: TLocalIssuer;
  const audits: { orgId: string | null; action: string; data: unknown }[] = [];

  beforeAll(async () => {
    issuer = await startLocalOidcIssuer({ audience: AUDIENCE, subject: SUBJECT });
  });
  afterAll(() => issuer.close());

  function service(jwksOptions: TJwksOptions) {
    const policy = {
      id: '0190d6a2-6a86-7c3e-9d0a-000000000001',
      orgId: ORG,
      name: 'ci',
      issuer: issuer.issuer,
      audience: AUDIENCE,
      jwksUri: issuer.jwksUri,
      subjectPattern: 'repo:acme/*:ref:refs/heads/main',
      claims: {},
      scopes: ['scans:create'],
      createdByType: 'human',
      createdById: null,
      createdAt: new Date(),
    };
    return makePipelineExchangeService({
      trustPolicies: {
        orgsTrustingIssuer: async (iss) => (iss === issuer.issuer ? [ORG] : []),
        byIssuer: async (orgId, iss) => (orgId === ORG && iss === issuer.issuer ? [policy] : []),
      },
      audit: { append: async (orgId, entry) => void audits.push({ orgId, action: entry.action, data: entry.data }) as never },
      accessTokens: { issue: async (principal, ttl) => ({ token: `issued.${Buffer.from(JSON.stringify({ jti: 'j1', p: principal })).toString('base64url')}.sig`, expiresIn: ttl ?? 900 }) },
      allowLoopbackHttp: true,
      log: { error: () => undefined },
      jwksOptions,
    });
  }
  const meta = { correlationId: 'test' };

  it('accepts a token under a new kid after the issuer rotates, by refetching the JWKS', async () => {
    const exchange = service({ cooldownMs: 0, cacheMaxAgeMs: 600_000, timeoutMs: 2_000 });
    await expect(exchange.exchange({ token: await issuer.sign() }, meta)).resolves.toMatchObject({ organizationId: ORG, scopes: ['scans:create'] });
    const fetchesBefore = issuer.fetches();
    await issuer.rotate({ dropOld: true });
    await expect(exchange.exchange({ token: await issuer.sign() }, meta)).resolves.toMatchObject({ organizationId: ORG });
    expect(issuer.fetches()).toBe(fetchesBefore + 1);
    // Cached now: the next token under the same key costs no fetch.
    await exchange.exchange({ token: await issuer.sign() }, meta);
    expect(issuer.fetches()).toBe(fetchesBefore + 1);
  });

  it('does not refetch within the cooldown, so unknown kids cannot hammer the issuer', async () => {
    const exchange = service({ cooldownMs: 60_000, cacheMaxAgeMs: 600_000, timeoutMs: 2_000 });
    await exchange.exchange({ token: await issuer.sign() }, meta);
    const fetchesBefore = issuer.fetches();
    for (let i = 0; i < 5; i += 1) {
      await expect(exchange.exchange({ token: await issuer.sign({ kid: `unknown-${i}` }) }, meta)).rejects.toMatchObject({
        code: 'invalid_pipeline_token',
        message: expect.stringContaining('a key the issuer does not publish'),
      });
    }
    expect(issuer.fetches()).toBe(fetchesBefore);
  });

  it('audits the success with the issued token id and subject', async () => {
    const exchange = service({ cooldownMs: 0, cacheMaxAgeMs: 600_000, timeoutMs: 2_000 });
    audits.length = 0;
    await exchange.exchange({ token: await issuer.sign() }, meta);
    expect(audits).toEqual([
      { orgId: ORG, action: 'pipeline.token_exchanged', data: expect.objectContaining({ outcome: 'issued', subject: SUBJECT, token_id: 'j1', scopes: ['scans:create'] }) },
    ]);
  });
});
