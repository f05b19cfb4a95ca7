/**
 * What a report may show of a secret: at most its first four characters (a token's public prefix,
 * such as `ghp_` or `AKIA`), fewer for short values so that a short password never shows a third
 * of itself, then `****`.
 */
export function redactSecret(secret: string): string {
  const keep = Math.min(4, Math.floor(secret.length / 4));
  return `${secret.slice(0, keep)}****`;
}

/** Replaces every span `[start, end)` of `line` with the redaction of its text; spans may overlap or exceed the line. */
export function redactSpans(line: string, spans: Array<{ start: number; end: number; secret: string }>): string {
  const ordered = spans
    .map((s) => ({ start: Math.max(0, s.start), end: Math.min(line.length, s.end), secret: s.secret }))
    .filter((s) => s.end > s.start)
    .sort((a, b) => a.start - b.start);
  let out = '';
  let cursor = 0;
  for (const span of ordered) {
    if (span.end <= cursor) continue;
    const from = Math.max(cursor, span.start);
    out += line.slice(cursor, from);
    if (from === span.start) out += redactSecret(span.secret);
    cursor = span.end;
  }
  return out + line.slice(cursor);
}
