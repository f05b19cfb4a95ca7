import { isMap, isScalar, isSeq, LineCounter, parseAllDocuments, type Document, type Node } from 'yaml';
import type { TPathSegment } from './iac-result';

/** One parsed YAML document: its plain value, plus a way back from a path to a source line. */
export type TYamlDoc = {
  index: number;
  value: unknown;
  /** 1-based line of the deepest node that exists along `path` (a key's own line for a map entry). */
  lineOf: (path: TPathSegment[]) => number | undefined;
};

/**
 * Every well-formed document of a (multi-document) YAML file. Documents with syntax errors are
 * dropped rather than guessed at; Helm templates with `{{ }}` mostly land here. Alias expansion
 * is capped by the library (maxAliasCount), which stops "billion laughs" documents.
 */
export function parseYamlDocuments(text: string, version: '1.1' | '1.2'): TYamlDoc[] {
  const lineCounter = new LineCounter();
  let docs: Document.Parsed[];
  try {
    docs = parseAllDocuments(text, { lineCounter, version, uniqueKeys: false, prettyErrors: false, logLevel: 'silent' }) as Document.Parsed[];
  } catch {
    return [];
  }
  if (!Array.isArray(docs)) return [];
  const out: TYamlDoc[] = [];
  docs.forEach((doc, index) => {
    if (doc.errors.length > 0) return;
    let value: unknown;
    try {
      value = doc.toJS({ maxAliasCount: 100 });
    } catch {
      return;
    }
    if (value === null || value === undefined) return;
    const line = (offset: number | undefined) => (offset === undefined ? undefined : lineCounter.linePos(offset).line);
    out.push({
      index,
      value,
      lineOf: (path) => {
        let node: unknown = doc.contents;
        let found = line((node as Node | null)?.range?.[0]);
        for (const seg of path) {
          if (isMap(node)) {
            const pair = node.items.find((p) => (isScalar(p.key) ? p.key.value : p.key) === seg);
            if (!pair) break;
            found = line((pair.key as Node | null)?.range?.[0]) ?? found;
            node = pair.value;
          } else if (isSeq(node) && typeof seg === 'number') {
            const item = node.items[seg] as Node | undefined;
            if (!item) break;
            found = line(item.range?.[0]) ?? found;
            node = item;
          } else break;
        }
        return found;
      },
    });
  });
  return out;
}

export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

export function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
