// Subject patterns of pipeline trust policies: a small glob, never a user-supplied regular
// expression, so a policy cannot make the exchange slow (no backtracking) and reads the way CI
// providers document their subjects (`repo:acme/*:ref:refs/heads/main`).
//
//   *   any run of characters except `:` (one segment of a GitHub/GitLab subject)
//   **  any run of characters, `:` included
//   ?   exactly one character except `:`
//   anything else matches itself, case-sensitively (providers send the casing they store).
//
// Matching is a dynamic programme over (pattern token, subject position): O(pattern × subject)
// with both lengths capped, whatever the input.

export const SUBJECT_PATTERN_MAX_LENGTH = 256;
/** Longer subjects are refused before matching; real CI subjects are well under this. */
export const SUBJECT_MAX_LENGTH = 1024;
const MAX_WILDCARDS = 16;
const SEGMENT_SEPARATOR = ':';

type TToken = { kind: 'literal'; char: string } | { kind: 'star' } | { kind: 'globstar' } | { kind: 'one' };

export interface TSubjectPattern {
  readonly source: string;
  matches(subject: string): boolean;
}

function tokenize(pattern: string): TToken[] {
  const tokens: TToken[] = [];
  for (let i = 0; i < pattern.length; i += 1) {
    const char = pattern[i];
    if (char === '*') {
      if (pattern[i + 1] === '*') {
        tokens.push({ kind: 'globstar' });
        i += 1;
      } else tokens.push({ kind: 'star' });
    } else if (char === '?') tokens.push({ kind: 'one' });
    else tokens.push({ kind: 'literal', char });
  }
  return tokens;
}

/** Why a pattern cannot be used, or null when it can. */
export function subjectPatternProblem(pattern: string): string | null {
  if (pattern.length === 0) return 'must not be empty';
  if (pattern.length > SUBJECT_PATTERN_MAX_LENGTH) return `must be at most ${SUBJECT_PATTERN_MAX_LENGTH} characters`;
  if (!/^[\x20-\x7e]+$/.test(pattern)) return 'must be printable ASCII';
  if (pattern.includes('***')) return 'must not contain more than two * in a row';
  const tokens = tokenize(pattern);
  if (tokens.filter((t) => t.kind !== 'literal').length > MAX_WILDCARDS) return `must contain at most ${MAX_WILDCARDS} wildcards`;
  // An issuer like GitHub signs tokens for every repository in the world: a pattern without a
  // literal part would trust all of them.
  if (!tokens.some((t) => t.kind === 'literal' && t.char !== SEGMENT_SEPARATOR)) {
    return 'must contain literal text (a pattern of wildcards only would trust every subject of the issuer)';
  }
  return null;
}

export function compileSubjectPattern(pattern: string): TSubjectPattern {
  const problem = subjectPatternProblem(pattern);
  if (problem) throw new Error(`subject pattern ${problem}`);
  const tokens = tokenize(pattern);
  return {
    source: pattern,
    matches(subject) {
      if (subject.length > SUBJECT_MAX_LENGTH) return false;
      const n = subject.length;
      // prev[j]: the tokens so far match subject[0, j).
      let prev = new Uint8Array(n + 1);
      prev[0] = 1;
      for (const token of tokens) {
        const next = new Uint8Array(n + 1);
        for (let j = 0; j <= n; j += 1) {
          const char = subject[j - 1];
          switch (token.kind) {
            case 'literal':
              next[j] = j > 0 && prev[j - 1] && char === token.char ? 1 : 0;
              break;
            case 'one':
              next[j] = j > 0 && prev[j - 1] && char !== SEGMENT_SEPARATOR ? 1 : 0;
              break;
            case 'star':
              next[j] = prev[j] || (j > 0 && next[j - 1] && char !== SEGMENT_SEPARATOR) ? 1 : 0;
              break;
            case 'globstar':
              next[j] = prev[j] || (j > 0 && next[j - 1]) ? 1 : 0;
              break;
          }
        }
        prev = next;
      }
      return prev[n] === 1;
    },
  };
}
