import { createHmac, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { AppError } from '@palisade/domain';
import { checkClaims, CLOCK_SKEW_SECONDS, makeAccessTokenService, MAX_TOKEN_LENGTH, parseAccessToken, TOKEN_AUDIENCE, TOKEN_ISSUER } from './access-tokens';
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

describe('verify() is total: every malformed token is a 401, never another exception', () => {
  const human = { kind: 'human' as const, id: '0190d6a2-6a86-7c3e-9d0a-3f4b2c1d0e9f', isPlatformAdmin: false };
  const repo = memoryKeyRepo();
  const keys = makeSigningKeyService({ keys: repo, kek: randomBytes(32) });
  const askedFor: unknown[] = [];
  const tokens = makeAccessTokenService({
    keys: { signingKey: () => keys.signingKey(), verificationKey: (kid) => (askedFor.push(kid), keys.verificationKey(kid)) },
  });
  let kid: string;
  let privateKey: KeyObject;
  const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const raw = (text: string) => Buffer.from(text).toString('base64url');
  const now = () => Math.floor(Date.now() / 1000);
  const goodClaims = () => ({ sub: human.id, pk: 'human', iss: TOKEN_ISSUER, aud: TOKEN_AUDIENCE, iat: now(), exp: now() + 60 });
  /** Signs any header and payload segments with the active key, so only their shape can be wrong. */
  const signed = (header: string, payload: string) =>
    `${header}.${payload}.${sign('RSA-SHA256', Buffer.from(`${header}.${payload}`), privateKey).toString('base64url')}`;
  const goodHeader = () => b64({ alg: 'RS256', typ: 'JWT', kid });

  beforeAll(async () => {
    await keys.ensureActiveKey();
    ({ kid, privateKey } = await keys.signingKey());
  });
  beforeEach(() => (askedFor.length = 0));

  async function expectRefused(token: unknown, message?: string | RegExp): Promise<void> {
    const error = await tokens.verify(token as string).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'unauthenticated', status: 401 });
    if (message) expect((error as AppError).message).toMatch(message);
  }

  it('accepts a token built by hand the way the tests below build the bad ones', async () => {
    await expect(tokens.verify(signed(goodHeader(), b64(goodClaims())))).resolves.toMatchObject({ kind: 'human', id: human.id });
  });

  it.each([
    ['a payload that is not JSON (typ: JWT)', () => signed(goodHeader(), raw('{"sub": not json'))],
    ['a payload that is a JSON array', () => signed(goodHeader(), b64([goodClaims()]))],
    ['a payload that is JSON null', () => signed(goodHeader(), b64(null))],
    ['a payload that is a JSON string', () => signed(goodHeader(), b64(JSON.stringify(goodClaims())))],
    ['an empty payload', () => signed(goodHeader(), '')],
    ['a header that is not JSON', () => signed(raw('{"alg":"RS256",'), b64(goodClaims()))],
    ['a header that is a JSON array', () => signed(b64(['RS256', kid]), b64(goodClaims()))],
    ['a header that is JSON null', () => signed(b64(null), b64(goodClaims()))],
    ['an empty header', () => signed('', b64(goodClaims()))],
  ])('refuses %s', async (_name, make) => {
    await expectRefused(make(), /not a JWT/);
    expect(askedFor).toEqual([]);
  });

  it.each([
    ['standard base64 characters', (t: string) => t.replace(/^(.{8})/, '$1+/')],
    ['base64 padding', (t: string) => t.replace('.', '==.')],
    ['a character outside the alphabet', (t: string) => t.replace(/^(.{4})/, '$1!')],
    ['non-canonical trailing bits in the payload', (t: string) => flipTrailingBits(t, 1)],
    ['a segment of impossible length (4n+1)', (t: string) => t.replace('.', 'A.')],
    ['two segments', (t: string) => t.split('.').slice(0, 2).join('.')],
    ['four segments', (t: string) => `${t}.${t.split('.')[2]}`],
    ['one segment', (t: string) => t.split('.')[0]],
    ['whitespace inside', (t: string) => t.replace('.', ' .')],
  ])('refuses a token with %s', async (_name, mangle) => {
    await expectRefused(mangle(signed(goodHeader(), b64(goodClaims()))));
  });

  it.each([
    ['a number', 5],
    ['an object', { $ne: null }],
    ['an array', ['k1']],
    ['null', null],
    ['an empty string', ''],
    ['65 characters', 'k'.repeat(65)],
    ['4096 characters', 'k'.repeat(4096)],
    ['a NUL', 'a\u0000b'],
    ['a space', 'a b'],
    ['non-ASCII', 'clé'],
    ['a lone surrogate', '\ud800'],
  ])('refuses a kid that is %s without asking the key service', async (_name, badKid) => {
    await expectRefused(signed(b64({ alg: 'RS256', typ: 'JWT', kid: badKid }), b64(goodClaims())), /kid/);
    expect(askedFor).toEqual([]);
  });

  it('refuses a missing kid', async () => {
    await expectRefused(signed(b64({ alg: 'RS256', typ: 'JWT' }), b64(goodClaims())), /kid/);
    expect(askedFor).toEqual([]);
  });

  it.each([
    ['a wrong typ', { typ: 'dpop+jwt' }],
    ['no typ', { typ: undefined }],
    ['a lower-case typ', { typ: 'jwt' }],
  ])('refuses %s in an otherwise valid token', async (_name, extra) => {
    const header: Record<string, unknown> = { alg: 'RS256', typ: 'JWT', kid };
    await expectRefused(signed(b64({ ...header, ...extra }), b64(goodClaims())), /typ/);
  });

  it.each(['RS512', 'PS256', 'ES256', 'HS256', 'none', 'rs256', ''])('refuses alg %p', async (alg) => {
    await expectRefused(signed(b64({ alg, typ: 'JWT', kid }), b64(goodClaims())), /RS256/);
    expect(askedFor).toEqual([]);
  });

  it('refuses a crit header, even an empty one', async () => {
    await expectRefused(signed(b64({ alg: 'RS256', typ: 'JWT', kid, crit: ['exp'], exp: 1 }), b64(goodClaims())), /critical/);
    await expectRefused(signed(b64({ alg: 'RS256', typ: 'JWT', kid, crit: [] }), b64(goodClaims())), /critical/);
  });

  it('refuses a validly signed token longer than MAX_TOKEN_LENGTH before reading it', async () => {
    const token = signed(goodHeader(), b64({ ...goodClaims(), pad: 'x'.repeat(MAX_TOKEN_LENGTH) }));
    await expectRefused(token, /longer than/);
    expect(askedFor).toEqual([]);
  });

  it('refuses what is not a string at all', async () => {
    for (const value of [undefined, null, 42, {}, ['a.b.c']]) await expectRefused(value);
  });

  it('refuses a missing, truncated, non-canonical or foreign signature', async () => {
    const token = signed(goodHeader(), b64(goodClaims()));
    const [header, payload, signature] = token.split('.');
    await expectRefused(`${header}.${payload}.`, /signature/);
    await expectRefused(`${header}.${payload}.${signature.slice(0, 100)}`, /failed verification/);
    await expectRefused(`${header}.${payload}.${signature}AAAA`, /failed verification/);
    await expectRefused(flipTrailingBits(token, 2));
    const foreign = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    await expectRefused(`${header}.${payload}.${sign('RSA-SHA256', Buffer.from(`${header}.${payload}`), foreign).toString('base64url')}`, /failed verification/);
  });

  it('refuses, without throwing, when the kid maps to a key that is not RSA', async () => {
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const odd = makeAccessTokenService({ keys: { signingKey: () => keys.signingKey(), verificationKey: async () => ec.publicKey } });
    await expectRefusedBy(odd, signed(goodHeader(), b64(goodClaims())));
  });

  it('checks the claims of a validly signed token', async () => {
    const t = (claims: object) => signed(goodHeader(), b64(claims));
    const { exp: _exp, ...noExp } = goodClaims();
    await expectRefused(t(noExp), /failed verification/);
    await expectRefused(t({ ...goodClaims(), exp: String(now() + 60) }), /failed verification/);
    await expectRefused(t({ ...goodClaims(), nbf: now() + 60 }), /not valid yet/);
    await expectRefused(t({ ...goodClaims(), aud: ['other', 'another'] }), /failed verification/);
    await expectRefused(t({ ...goodClaims(), iss: undefined }), /failed verification/);
    await expectRefused(t({ ...goodClaims(), sub: 42 }), /principal/);
    await expectRefused(t({ ...goodClaims(), pk: 'root' }), /principal/);
    await expectRefused(t({ ...goodClaims(), exp: now() - 60 }), /expired/);
    await expect(tokens.verify(t({ ...goodClaims(), aud: ['other', TOKEN_AUDIENCE], nbf: now() + 2 }))).resolves.toMatchObject({ id: human.id });
  });
});

describe('checkClaims', () => {
  const T = 1_800_000_000;
  const ms = T * 1000;
  const base = { iss: TOKEN_ISSUER, aud: TOKEN_AUDIENCE, exp: T + 60 };
  const refusal = (claims: Record<string, unknown>, nowMs = ms) => {
    try {
      checkClaims(claims, nowMs);
      return 'accepted';
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      return (error as AppError).message;
    }
  };

  it('accepts our issuer and audience (alone or in a list) before exp', () => {
    expect(checkClaims(base, ms)).toEqual({ exp: T + 60 });
    expect(refusal({ ...base, aud: [TOKEN_AUDIENCE] })).toBe('accepted');
    expect(refusal({ ...base, aud: ['x', TOKEN_AUDIENCE] })).toBe('accepted');
  });

  it('refuses another issuer or audience, or none', () => {
    for (const claims of [{ ...base, iss: 'other' }, { ...base, iss: undefined }, { ...base, aud: 'other' }, { ...base, aud: undefined }, { ...base, aud: [] }, { ...base, aud: [['palisade-api']] }]) {
      expect(refusal(claims)).toBe('The access token failed verification.');
    }
  });

  it('expires at exp plus the clock skew, not before', () => {
    expect(refusal({ ...base, exp: T - CLOCK_SKEW_SECONDS + 1 })).toBe('accepted');
    expect(refusal({ ...base, exp: T - CLOCK_SKEW_SECONDS })).toBe('The access token has expired.');
    expect(refusal({ ...base, exp: T + 60 }, (T + 60 + CLOCK_SKEW_SECONDS) * 1000 - 1)).toBe('accepted');
    expect(refusal({ ...base, exp: T + 60 }, (T + 60 + CLOCK_SKEW_SECONDS) * 1000)).toBe('The access token has expired.');
  });

  it('honours nbf with the same skew', () => {
    expect(refusal({ ...base, nbf: T + CLOCK_SKEW_SECONDS })).toBe('accepted');
    expect(refusal({ ...base, nbf: T + CLOCK_SKEW_SECONDS + 1 })).toBe('The access token is not valid yet.');
  });

  it('refuses a missing or non-numeric exp, and a non-numeric nbf or iat', () => {
    for (const claims of [
      { iss: TOKEN_ISSUER, aud: TOKEN_AUDIENCE },
      { ...base, exp: `${T + 60}` },
      { ...base, exp: null },
      { ...base, exp: Infinity },
      { ...base, nbf: '0' },
      { ...base, iat: 'now' },
    ]) {
      expect(refusal(claims)).toBe('The access token failed verification.');
    }
  });

  it('checks issuer and audience before expiry, so a token for someone else is not told to refresh', () => {
    expect(refusal({ ...base, aud: 'other', exp: T - 3600 })).toBe('The access token failed verification.');
  });
});

describe('parseAccessToken', () => {
  it('returns the kid, the claims, the signed bytes and the signature', () => {
    const header = Buffer.from(JSON.stringify({ alg: 'RS256', typ: 'JWT', kid: 'k1' })).toString('base64url');
    const payload = Buffer.from(JSON.stringify({ sub: 's' })).toString('base64url');
    const parsed = parseAccessToken(`${header}.${payload}.AQID`);
    expect(parsed).toEqual({ kid: 'k1', claims: { sub: 's' }, signingInput: `${header}.${payload}`, signature: Buffer.from([1, 2, 3]) });
  });
});

/** The same bytes under another spelling: bump the unused low bits of a segment's last character. */
function flipTrailingBits(token: string, segment: number): string {
  const parts = token.split('.');
  const s = parts[segment];
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const last = alphabet.indexOf(s.at(-1)!);
  const unused = s.length % 4 === 2 ? 0b1111 : s.length % 4 === 3 ? 0b11 : 0;
  if (unused === 0) throw new Error('segment has no unused bits; pick claims of another length');
  parts[segment] = s.slice(0, -1) + alphabet[last ^ 1];
  expect(Buffer.from(parts[segment], 'base64url')).toEqual(Buffer.from(s, 'base64url'));
  return parts.join('.');
}

async function expectRefusedBy(service: { verify(token: string): Promise<unknown> }, token: string): Promise<void> {
  const error = await service.verify(token).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  expect(error).toMatchObject({ code: 'unauthenticated' });
}
