import { compileSubjectPattern, subjectPatternProblem } from './subject-pattern';

describe('subject patterns', () => {
  const matches = (pattern: string, subject: string) => compileSubjectPattern(pattern).matches(subject);

  it('matches a GitHub subject with one repository wildcard', () => {
    expect(matches('repo:acme/*:ref:refs/heads/main', 'repo:acme/api:ref:refs/heads/main')).toBe(true);
    expect(matches('repo:acme/*:ref:refs/heads/main', 'repo:acme/api:ref:refs/heads/dev')).toBe(false);
    expect(matches('repo:acme/*:ref:refs/heads/main', 'repo:evil/api:ref:refs/heads/main')).toBe(false);
  });

  it('keeps * inside one colon-separated segment and lets ** cross segments', () => {
    expect(matches('repo:acme/*:ref:refs/heads/main', 'repo:acme/x:environment:prod:ref:refs/heads/main')).toBe(false);
    expect(matches('repo:acme/**', 'repo:acme/x:environment:prod')).toBe(true);
    expect(matches('repo:acme/*', 'repo:acme/x:environment:prod')).toBe(false);
  });

  it('lets * cross slashes within a segment (branch names with slashes)', () => {
    expect(matches('repo:acme/api:ref:refs/heads/*', 'repo:acme/api:ref:refs/heads/feature/x')).toBe(true);
  });

  it('matches ? as exactly one non-colon character, and everything else literally and case-sensitively', () => {
    expect(matches('repo:acme/ap?:ref:x', 'repo:acme/api:ref:x')).toBe(true);
    expect(matches('repo:acme/ap?:ref:x', 'repo:acme/ap:ref:x')).toBe(false);
    expect(matches('repo:acme/a.i', 'repo:acme/api')).toBe(false);
    expect(matches('repo:acme/api', 'repo:Acme/api')).toBe(false);
    expect(matches('repo:acme/(a|b)+', 'repo:acme/(a|b)+')).toBe(true);
  });

  it('anchors the whole subject', () => {
    expect(matches('repo:acme/api', 'xrepo:acme/api')).toBe(false);
    expect(matches('repo:acme/api', 'repo:acme/api2')).toBe(false);
  });

  it('refuses wildcard-only, empty, over-long and non-ASCII patterns', () => {
    for (const bad of ['', '*', '**', '*:*', '?', 'a'.repeat(257), 'repo:ä/*', 'repo:***']) {
      expect(subjectPatternProblem(bad)).toEqual(expect.any(String));
    }
    expect(() => compileSubjectPattern('**')).toThrow();
    expect(subjectPatternProblem('repo:acme/*:ref:refs/heads/main')).toBeNull();
  });

  it('stays fast on adversarial input (no backtracking)', () => {
    const pattern = compileSubjectPattern(`${'**a'.repeat(16)}b`);
    const started = process.hrtime.bigint();
    expect(pattern.matches('a'.repeat(1024))).toBe(false);
    expect(Number(process.hrtime.bigint() - started) / 1e6).toBeLessThan(200);
  });

  it('refuses subjects longer than the cap without matching', () => {
    expect(compileSubjectPattern('repo:**').matches(`repo:${'x'.repeat(2000)}`)).toBe(false);
  });
});
