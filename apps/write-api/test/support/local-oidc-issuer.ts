// A real OIDC issuer on loopback for tests: it serves a JWKS over HTTP and signs real tokens with
// jose, so the exchange is tested against the same code paths a CI provider exercises.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import type * as Jose from 'jose' with { 'resolution-mode': 'import' };

// eslint-disable-next-line @typescript-eslint/no-require-imports
const jose: typeof Jose = require('jose');

export interface TIssuerKey {
  kid: string;
  privateKey: Jose.CryptoKey;
  publicJwk: Jose.JWK;
}

export interface TSignOptions {
  subject?: string;
  audience?: string;
  issuer?: string;
  /** Seconds from now; negative for an expired token. */
  expiresIn?: number;
  notBefore?: number;
  kid?: string;
  key?: Jose.CryptoKey;
  claims?: Record<string, unknown>;
  omitExp?: boolean;
}

export interface TLocalIssuer {
  issuer: string;
  jwksUri: string;
  /** How many times the JWKS was fetched. */
  fetches(): number;
  current(): TIssuerKey;
  /** Publishes a new key and signs with it from now on; `dropOld` unpublishes the previous ones. */
  rotate(options?: { dropOld?: boolean }): Promise<TIssuerKey>;
  sign(options?: TSignOptions): Promise<string>;
  close(): Promise<void>;
}

export async function newIssuerKey(alg = 'RS256'): Promise<TIssuerKey> {
  const { privateKey, publicKey } = await jose.generateKeyPair(alg, { extractable: true });
  const kid = randomUUID();
  return { kid, privateKey, publicJwk: { ...(await jose.exportJWK(publicKey)), kid, alg, use: 'sig' } };
}

export async function startLocalOidcIssuer(defaults: { audience: string; subject: string }): Promise<TLocalIssuer> {
  let published: TIssuerKey[] = [await newIssuerKey()];
  let fetchCount = 0;
  const server: Server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === '/.well-known/jwks.json') {
      fetchCount += 1;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ keys: published.map((k) => k.publicJwk) }));
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    issuer,
    jwksUri: `${issuer}/.well-known/jwks.json`,
    fetches: () => fetchCount,
    current: () => published[published.length - 1],
    async rotate({ dropOld = false } = {}) {
      const key = await newIssuerKey();
      published = dropOld ? [key] : [...published, key];
      return key;
    },
    async sign(options: TSignOptions = {}) {
      const signing = published[published.length - 1];
      const now = Math.floor(Date.now() / 1000);
      let jwt = new jose.SignJWT({ ...options.claims })
        .setProtectedHeader({ alg: 'RS256', typ: 'JWT', kid: options.kid ?? signing.kid })
        .setIssuer(options.issuer ?? issuer)
        .setAudience(options.audience ?? defaults.audience)
        .setSubject(options.subject ?? defaults.subject)
        .setIssuedAt(now)
        .setJti(randomUUID());
      if (!options.omitExp) jwt = jwt.setExpirationTime(now + (options.expiresIn ?? 300));
      if (options.notBefore !== undefined) jwt = jwt.setNotBefore(now + options.notBefore);
      return jwt.sign(options.key ?? signing.privateKey);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A token by hand, for the shapes jose refuses to produce (`alg: none`, HS256). */
export function unsignedToken(header: Record<string, unknown>, payload: Record<string, unknown>, signature = ''): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part(header)}.${part(payload)}.${signature}`;
}
