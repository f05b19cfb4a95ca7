import type * as SmolToml from 'smol-toml' with { 'resolution-mode': 'import' };

// smol-toml declares its types as an ES module but ships a CommonJS build (dist/index.cjs), which
// is what `require` loads here; the same pattern the write plane uses for jose.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const toml: typeof SmolToml = require('smol-toml');

/** TOML 1.0 → plain objects (Cargo.lock, poetry.lock, uv.lock, pdm.lock, pyproject.toml). */
export function parseToml(text: string): Record<string, unknown> {
  return toml.parse(text) as Record<string, unknown>;
}

/** The `[[package]]` tables of a TOML lockfile (Cargo.lock, poetry.lock, uv.lock, pdm.lock); entries that are not tables are dropped. */
export function packageTables(doc: Record<string, unknown>): Array<Record<string, unknown>> {
  const list = Array.isArray(doc.package) ? doc.package : [];
  return list.filter((t): t is Record<string, unknown> => t !== null && typeof t === 'object' && !Array.isArray(t));
}
