import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ZNormalizedFinding } from '../findings/normalized-finding';
import { parseReportBuffer } from './parse-report';
import { ReportParseError } from './report-parse-error';
import type { TReportFormat } from './report-item';
import { CORPUS_DIR, corpusFiles, describeCorpus } from './testing/corpus';

/**
 * Hostile or malformed reports: values of the wrong type anywhere (seeded, reproducible
 * mutations of real reports) must end either in valid findings or in a ReportParseError, never
 * in another exception (which callback-api would have to answer with a 500).
 */
const FORMATS: Record<string, TReportFormat> = { sarif: 'sarif', cyclonedx: 'cyclonedx', trivy: 'trivy', grype: 'grype', gitleaks: 'gitleaks', semgrep: 'semgrep', 'npm-audit': 'npm-audit', 'osv-scanner': 'osv-scanner' };
const TOKENS = ['null', '0', '-1', '1e400', '"x"', '""', '[]', '{}', 'true', '[null]', '{"a":null}', '"%E0%A4%A"', '"urn:cdx:x#%zz"'];

function mutate(text: string, rnd: () => number): string {
  let t = text;
  for (let m = 0; m < 3; m++) {
    const re = /[:[,]\s*/g;
    re.lastIndex = Math.floor(rnd() * t.length);
    const hit = re.exec(t);
    if (hit === null) continue;
    const start = hit.index + hit[0].length;
    let depth = 0;
    let inString = false;
    let i = start;
    for (; i < t.length; i++) {
      const c = t[i];
      if (inString) {
        if (c === '\\') i++;
        else if (c === '"') inString = false;
        continue;
      }
      if (c === '"') inString = true;
      else if (c === '{' || c === '[') depth++;
      else if (c === '}' || c === ']') {
        if (depth === 0) break;
        if (--depth === 0) {
          i++;
          break;
        }
      } else if (c === ',' && depth === 0) break;
    }
    t = t.slice(0, start) + TOKENS[Math.floor(rnd() * TOKENS.length)] + t.slice(i);
  }
  return t;
}

describeCorpus('robustness against malformed reports', () => {
  const cases = Object.entries(FORMATS).flatMap(([dir, format]) => corpusFiles(dir).map((file) => [`${dir}/${file}`, format] as const));

  it.each(cases)('%s: mutated copies give valid findings or a ReportParseError', async (path, format) => {
    const text = readFileSync(join(CORPUS_DIR, path), 'utf8');
    if (text.length > 300_000) return;
    let seed = path.length * 7919;
    const rnd = (): number => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    for (let k = 0; k < 12; k++) {
      try {
        for (const item of await parseReportBuffer(format, mutate(text, rnd))) {
          if (item.type === 'finding') expect(ZNormalizedFinding.safeParse(item.finding).success).toBe(true);
        }
      } catch (err) {
        if (!(err instanceof ReportParseError)) throw err;
      }
    }
  });
});
