/**
 * A Palisade tool name (ZToolName: lower-case letters, digits, ".", "_", "-", 1-64 characters)
 * from whatever a report calls its tool ("CodeQL command-line toolchain" → "codeql-command-line-toolchain").
 */
export function toToolName(name: unknown, fallback: string): string {
  if (typeof name !== 'string') return fallback;
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[^a-z0-9]+/, '')
    .replace(/-+$/, '')
    .slice(0, 64);
  return slug === '' ? fallback : slug;
}

/** The caller's tool name wins: it is the tool the report was posted for. */
export function pickToolName(optionTool: string | undefined, reportName: unknown, fallback: string): string {
  return optionTool !== undefined && optionTool !== '' ? optionTool : toToolName(reportName, fallback);
}
