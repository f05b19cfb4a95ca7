export type TDockerInstruction = {
  /** Upper-cased keyword: FROM, USER, ENV, ... */
  keyword: string;
  /** Arguments with line continuations joined. */
  args: string;
  /** 1-based line where the instruction starts. */
  line: number;
};

/**
 * Splits a Dockerfile into instructions: honours the `escape` parser directive, line
 * continuations, comment lines inside continuations (Docker drops them) and heredoc bodies
 * (`RUN <<EOF ... EOF`), whose lines are not instructions.
 */
export function parseDockerfile(text: string): TDockerInstruction[] {
  const lines = text.split(/\r?\n/);
  let escape = '\\';
  const directive = /^#\s*escape\s*=\s*([\\`])\s*$/i;
  for (const line of lines) {
    const m = directive.exec(line);
    if (m) {
      escape = m[1];
      break;
    }
    if (!/^#\s*\w+\s*=/.test(line)) break;
  }

  const out: TDockerInstruction[] = [];
  for (let i = 0; i < lines.length; i++) {
    const first = lines[i].trim();
    if (first === '' || first.startsWith('#')) continue;
    const startLine = i + 1;
    let joined = '';
    let current = lines[i];
    for (;;) {
      const trimmed = current.replace(/\s+$/, '');
      if (trimmed.endsWith(escape) && i + 1 < lines.length) {
        joined += `${trimmed.slice(0, -1)} `;
        i++;
        while (i + 1 < lines.length && /^\s*#/.test(lines[i])) i++;
        current = lines[i];
        continue;
      }
      joined += trimmed;
      break;
    }
    const m = /^\s*([A-Za-z]+)\s*(.*)$/s.exec(joined);
    if (!m) continue;
    const instruction: TDockerInstruction = { keyword: m[1].toUpperCase(), args: m[2].trim(), line: startLine };
    out.push(instruction);
    for (const heredoc of instruction.args.matchAll(/<<(-?)(["']?)([A-Za-z_][A-Za-z0-9_]*)\2/g)) {
      const strip = heredoc[1] === '-';
      const delimiter = heredoc[3];
      while (i + 1 < lines.length) {
        i++;
        const body = strip ? lines[i].replace(/^\t+/, '') : lines[i];
        if (body.trimEnd() === delimiter) break;
      }
    }
  }
  return out;
}

/** Shell-like words of an instruction's arguments: quotes group and are removed, backslash escapes the next character. */
export function splitWords(args: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: string | null = null;
  for (let i = 0; i < args.length; i++) {
    const ch = args[i];
    if (quote) {
      if (ch === quote) quote = null;
      else if (ch === '\\' && quote === '"' && i + 1 < args.length) word += args[++i];
      else word += ch;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      inWord = true;
    } else if (ch === '\\' && i + 1 < args.length) {
      word += args[++i];
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += ch;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}

/** ENV/ARG pairs: `K=V K2="v 2"`, or the legacy `ENV K some value` form. A bare `ARG K` has value undefined. */
export function parseKeyValues(keyword: string, args: string): Array<{ key: string; value: string | undefined }> {
  const words = splitWords(args);
  if (words.length === 0) return [];
  if (keyword === 'ENV' && !words[0].includes('=')) {
    return [{ key: words[0], value: words.length > 1 ? words.slice(1).join(' ') : undefined }];
  }
  return words.map((w) => {
    const eq = w.indexOf('=');
    return eq === -1 ? { key: w, value: undefined } : { key: w.slice(0, eq), value: w.slice(eq + 1) };
  });
}
