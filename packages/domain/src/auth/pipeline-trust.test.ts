import { matchPolicyClaims, pipelinePolicyScopes, trustPolicyProblems, trustUrlProblem } from './pipeline-trust';

const base = {
  issuer: 'https://token.actions.githubusercontent.com',
  audience: 'https://palisade.example/acme',
  jwks_uri: 'https://token.actions.githubusercontent.com/.well-known/jwks',
  subject_pattern: 'repo:acme/*:ref:refs/heads/main',
};

describe('pipeline trust policies', () => {
  it('accepts https issuers and plain http only for loopback outside production', () => {
    expect(trustUrlProblem('https://issuer.example', { allowLoopbackHttp: false })).toBeNull();
    expect(trustUrlProblem('http://127.0.0.1:8123/', { allowLoopbackHttp: true })).toBeNull();
    expect(trustUrlProblem('http://127.0.0.1:8123/', { allowLoopbackHttp: false })).toMatch(/https/);
    expect(trustUrlProblem('http://issuer.example', { allowLoopbackHttp: true })).toMatch(/https/);
    expect(trustUrlProblem('ftp://issuer.example', { allowLoopbackHttp: true })).toMatch(/https/);
    expect(trustUrlProblem('https://user:pw@issuer.example', { allowLoopbackHttp: true })).toMatch(/credentials/);
    expect(trustUrlProblem('not a url', { allowLoopbackHttp: true })).toMatch(/absolute URL/);
  });

  it('names every problem of a policy as a field issue', () => {
    const issues = trustPolicyProblems(
      { ...base, issuer: 'http://issuer.example', subject_pattern: '**', claims: { sub: 'x', 'bad name': 'y' }, scopes: ['scans:create', 'findings:disposition'] },
      { allowLoopbackHttp: false },
    );
    expect(issues.map((i) => i.field)).toEqual(['body.issuer', 'body.subject_pattern', 'body.claims.sub', 'body.claims.bad name', 'body.scopes.1']);
    expect(trustPolicyProblems({ ...base, claims: { repository_owner: 'acme' }, scopes: ['org:read'] }, { allowLoopbackHttp: false })).toEqual([]);
  });

  it('grants scans:create and gate:evaluate by default, and deduplicates requested scopes', () => {
    expect(pipelinePolicyScopes(undefined)).toEqual(['scans:create', 'gate:evaluate']);
    expect(pipelinePolicyScopes(['scans:read', 'scans:read'])).toEqual(['scans:read']);
  });

  it('matches subject and exact claims of a verified payload', () => {
    const policy = { subjectPattern: base.subject_pattern, claims: { repository_owner: 'acme', ref_protected: true } };
    expect(matchPolicyClaims(policy, { sub: 'repo:acme/api:ref:refs/heads/main', repository_owner: 'acme', ref_protected: true })).toEqual({ ok: true });
    expect(matchPolicyClaims(policy, { sub: 'repo:acme/api:ref:refs/heads/dev', repository_owner: 'acme', ref_protected: true })).toEqual({ ok: false, reason: 'subject_mismatch' });
    expect(matchPolicyClaims(policy, { sub: 'repo:acme/api:ref:refs/heads/main', repository_owner: 'acme', ref_protected: 'true' })).toEqual({
      ok: false,
      reason: 'claim_mismatch',
      claim: 'ref_protected',
    });
    expect(matchPolicyClaims(policy, { repository_owner: 'acme' })).toEqual({ ok: false, reason: 'subject_mismatch' });
  });
});
