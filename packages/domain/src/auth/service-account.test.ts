import { generateServiceAccountToken, hashServiceAccountToken, isServiceAccountToken, serviceAccountScopeProblems } from './service-account';

describe('service-account tokens', () => {
  it('are psa_ plus 43 base64url characters, stored only as their sha256', () => {
    const { token, tokenHash, tokenHint } = generateServiceAccountToken();
    expect(token).toMatch(/^psa_[A-Za-z0-9_-]{43}$/);
    expect(tokenHash).toBe(hashServiceAccountToken(token));
    expect(tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(token.startsWith(tokenHint)).toBe(true);
    expect(tokenHint).toHaveLength(8);
    expect(isServiceAccountToken(token)).toBe(true);
    expect(isServiceAccountToken('eyJhbGciOi.x.y')).toBe(false);
  });

  it('refuse human-only and credential-minting scopes, and scopes beyond the creator role', () => {
    expect(serviceAccountScopeProblems(['scans:create', 'findings:disposition', 'service_accounts:manage'], 'owner').map((i) => i.field)).toEqual([
      'body.scopes.1',
      'body.scopes.2',
    ]);
    expect(serviceAccountScopeProblems(['audit:read'], 'member')).toEqual([{ field: 'body.scopes.0', issue: 'exceeds your own role (member)' }]);
    expect(serviceAccountScopeProblems(['audit:read', 'scans:create'], 'admin')).toEqual([]);
  });
});
