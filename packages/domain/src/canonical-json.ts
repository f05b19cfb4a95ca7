// Canonical JSON: object keys sorted recursively (by UTF-16 code units, as RFC 8785 does),
// separators "," and ":" with no whitespace, numbers and strings as JSON.stringify writes them.
// Identical values therefore give identical bytes, which is what webhook signatures (spec 6.1)
// and the audit hash chain sign over.
//
// Unlike JSON.stringify this refuses what has no single JSON spelling (NaN, Infinity, bigint,
// functions, symbols, cycles) instead of silently writing null or dropping it: a signature over a
// value the receiver cannot reproduce is worse than an error.

export type TCanonicalJsonOptions = {
  // Escape every non-ASCII character as \uXXXX, as Python's json.dumps does by default
  // (ensure_ascii=True). Off by default: UTF-8 as-is, as RFC 8785 does.
  asciiOnly?: boolean;
};

export function canonicalJson(value: unknown, options: TCanonicalJsonOptions = {}): string {
  const out = write(value, new Set<object>(), '');
  if (out === undefined) throw new TypeError('canonicalJson: the value has no JSON representation');
  return options.asciiOnly ? escapeNonAscii(out) : out;
}

// Returns undefined for values JSON leaves out of objects (undefined, and toJSON() results that
// are undefined), so the caller can skip the key like JSON.stringify does.
function write(value: unknown, ancestors: Set<object>, path: string): string | undefined {
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    value = (value as { toJSON(key: string): unknown }).toJSON('');
  }
  switch (typeof value) {
    case 'undefined':
      return undefined;
    case 'string':
    case 'boolean':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`canonicalJson: non-finite number at ${path || '$'}`);
      return JSON.stringify(value);
    case 'bigint':
    case 'function':
    case 'symbol':
      throw new TypeError(`canonicalJson: ${typeof value} at ${path || '$'} has no JSON representation`);
  }
  if (value === null) return 'null';
  const obj = value as object;
  if (ancestors.has(obj)) throw new TypeError(`canonicalJson: cycle at ${path || '$'}`);
  ancestors.add(obj);
  try {
    if (Array.isArray(obj)) {
      return `[${obj.map((item, i) => write(item, ancestors, `${path}[${i}]`) ?? 'null').join(',')}]`;
    }
    const parts: string[] = [];
    for (const key of Object.keys(obj).sort()) {
      const written = write((obj as Record<string, unknown>)[key], ancestors, `${path}.${key}`);
      if (written !== undefined) parts.push(`${JSON.stringify(key)}:${written}`);
    }
    return `{${parts.join(',')}}`;
  } finally {
    ancestors.delete(obj);
  }
}

function escapeNonAscii(json: string): string {
  // Only string contents can hold non-ASCII characters, so escaping them everywhere is safe.
  return json.replace(/[\u0080-\uffff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
