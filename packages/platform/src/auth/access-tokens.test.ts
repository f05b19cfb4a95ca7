import { createHmac, generateKeyPairSync, randomBytes } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { makeAccessTokenService, TOKEN_AUDIENCE, TOKEN_ISSUER } from './access-tokens';
import { makeSigningKeyService, type TSigningKeyRecord, type TSigningKeyRepo } from './signing-keys';

function memoryKeyRepo(): TSigningKeyRepo & { rows: TSigningKeyRecord[] } {
  const rows: TSigningKeyRecord[] = [];
  return {
    rows,
    insertIfNoneActive: async (key) => {
      if (rows.some((r) => r.status === 'active')) return false;
      rows.push({ ...key, status: 'active', retireAfter: null, createdAt: new Date() });
      return true;
    },
    activeKid: async () => rows.filter((r) => r.status === 'active').at(-1)?.kid ?? null,
    byKid: async (kid) => rows.find((r) => r.kid === kid) ?? null,
    listPublishable: async () => rows.filter((r) => r.status !== 'retired'),
  };
}

describe('access tokens', () => {
  const repo = memoryKeyRepo();
  const keys = makeSigningKeyService({ keys: repo, kek: randomBytes(32) });
  const tokens = makeAccessTokenService({ keys });
  const human = { kind: 'human' as const, id: '0190d6a2-6a86-7c3e-9d0a-3f4b2c1d0e9f', isPlatformAdmin: false, sessionId: 'fam' };

  beforeAll(() => keys.ensureActiveKey());

  it('issues an RS256 token with a kid that verifies back to the principal', async () => {
    const { token, expiresIn } = await tokens.issue(human);
    expect(expiresIn).toBe(900);
    expect(jwt.decode(token, { complete: true })?.header).toMatchObject({ alg: 'RS256', kid: repo.rows[0].kid });
    await expect(tokens.verify(token)).resolves.toMatchObject({ kind: 'human', id: human.id, sessionId: 'fam' });
  });

  it('refuses alg none', async () => {
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT', kid: repo.rows[0].kid })).toString('base64url');
    const body = Buffer.from(JSON.stringify({ sub: human.id, pk: 'human', iss: TOKEN_ISSUER, aud: TOKEN_AUDIENCE })).toString('base64url');
    await expect(tokens.verify(`${header}.${body}.`)).rejects.toMatchObject({ code: 'unauthenticated' });
  });

  it('refuses an HS256 token keyed with the public key', async () => {
    const record = repo.rows[0];
    const header = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT', kid: record.kid })).toString('base64url');
    const body = Buffer.from(JSON.stringify({ sub: human.id, pk: 'human', iss: TOKEN_ISSUER, aud: TOKEN_AUDIENCE, exp: 4e9 })).toString('base64url');
    const sig = createHmac('sha256', record.publicKeyPem).update(`${header}.${body}`).digest('base64url');
    await expect(tokens.verify(`${header}.${body}.${sig}`)).rejects.toMatchObject({ code: 'unauthenticated' });
  });

  it('refuses an unknown kid, a foreign key, an expired token and a wrong audience', async () => {
    const foreign = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    const claims = { sub: human.id, pk: 'human' };
    const sign = (options: jwt.SignOptions, key = foreign) =>
      jwt.sign(claims, key, { algorithm: 'RS256', issuer: TOKEN_ISSUER, audience: TOKEN_AUDIENCE, expiresIn: 60, ...options });
    await expect(tokens.verify(sign({ keyid: 'nope' }))).rejects.toMatchObject({ code: 'unauthenticated' });
    await expect(tokens.verify(sign({ keyid: repo.rows[0].kid }))).rejects.toMatchObject({ code: 'unauthenticated' });
    const { privateKey } = await keys.signingKey();
    await expect(tokens.verify(sign({ keyid: repo.rows[0].kid, expiresIn: -60 }, privateKey))).rejects.toMatchObject({
      message: 'The access token has expired.',
    });
    await expect(tokens.verify(sign({ keyid: repo.rows[0].kid, audience: 'other' }, privateKey))).rejects.toMatchObject({
      code: 'unauthenticated',
    });
  });

  it('refuses garbage', async () => {
    await expect(tokens.verify('not-a-jwt')).rejects.toMatchObject({ code: 'unauthenticated' });
  });
});

describe('the cache of verified tokens', () => {
  const human = { kind: 'human' as const, id: '0190d6a2-6a86-7c3e-9d0a-3f4b2c1d0e9f', isPlatformAdmin: false, scopes: ['scans:read'] };

  async function fresh() {
    const repo = memoryKeyRepo();
    let clock = Date.now();
    const keys = makeSigningKeyService({ keys: repo, kek: randomBytes(32), now: () => clock });
    await keys.ensureActiveKey();
    return { repo, keys, tokens: makeAccessTokenService({ keys }), advance: (ms: number) => (clock += ms) };
  }

  it('answers a token it verified before with a copy its caller cannot corrupt', async () => {
    const { tokens } = await fresh();
    const { token } = await tokens.issue(human);
    const first = await tokens.verify(token);
    (first.scopes as string[]).push('org:manage');
    await expect(tokens.verify(token)).resolves.toMatchObject({ id: human.id, scopes: ['scans:read'] });
  });

  it('refuses a token it verified before once its key is retired', async () => {
    const { repo, tokens, advance } = await fresh();
    const { token } = await tokens.issue(human);
    await tokens.verify(token);
    repo.rows[0].status = 'retired';
    advance(60_000); // past the key service's own cache of the kid's state
    await expect(tokens.verify(token)).rejects.toMatchObject({ code: 'unauthenticated' });
  });

  it('refuses a tampered copy of a token it verified before', async () => {
    const { tokens } = await fresh();
    const { token } = await tokens.issue(human);
    await tokens.verify(token);
    const [header, body, signature] = token.split('.');
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString());
    const forged = `${header}.${Buffer.from(JSON.stringify({ ...claims, adm: true })).toString('base64url')}.${signature}`;
    await expect(tokens.verify(forged)).rejects.toMatchObject({ code: 'unauthenticated' });
  });

  it('refuses a token it verified before once it has expired', async () => {
    const { tokens } = await fresh();
    const { token } = await tokens.issue(human, 1);
    await tokens.verify(token);
    const realNow = Date.now;
    Date.now = () => realNow() + 10_000;
    try {
      await expect(tokens.verify(token)).rejects.toMatchObject({ message: 'The access token has expired.' });
    } finally {
      Date.now = realNow;
    }
  });
});
