import { createReadStream, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { TNormalizedFinding } from '../../findings/normalized-finding';
import { parseReportStream } from '../parse-report';
import type { TParseReportOptions, TReportComponent, TReportFormat } from '../report-item';

/**
 * The shared scanner-output corpus (/work/shared/corpus, see its MANIFEST.md): real tool
 * outputs with the facts their source projects assert. Tests that need it are skipped, loudly
 * named, where it is absent (PALISADE_CORPUS_DIR overrides the location).
 */
export const CORPUS_DIR = process.env.PALISADE_CORPUS_DIR ?? '/work/shared/corpus';
export const HAS_CORPUS = existsSync(join(CORPUS_DIR, 'MANIFEST.md'));
export const describeCorpus = HAS_CORPUS ? describe : describe.skip;

export function corpusFiles(dir: string): string[] {
  return HAS_CORPUS ? readdirSync(join(CORPUS_DIR, dir)).sort() : [];
}

export interface TParsedCorpusFile {
  findings: TNormalizedFinding[];
  components: TReportComponent[];
}

/**
 * Streams a corpus file through parseReportStream in small, odd-sized chunks (1021 bytes), so
 * every test also crosses chunk boundaries inside strings, escapes, keys and numbers.
 */
export async function parseCorpusFile(format: TReportFormat, relPath: string, options: TParseReportOptions = {}): Promise<TParsedCorpusFile> {
  const findings: TNormalizedFinding[] = [];
  const components: TReportComponent[] = [];
  const stream = createReadStream(join(CORPUS_DIR, relPath), { highWaterMark: 1021 });
  for await (const item of parseReportStream(format, stream, options)) {
    if (item.type === 'finding') findings.push(item.finding);
    else components.push(item.component);
  }
  return { findings, components };
}
