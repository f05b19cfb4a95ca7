/** Percentiles over raw samples (nearest-rank): what every benchmark here prints. */
export function percentile(samples: number[], p: number): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

export function summarize(samples: number[]) {
  return { n: samples.length, p50: percentile(samples, 50), p99: percentile(samples, 99), max: Math.max(...samples) };
}

export function fmtMs(value: number): string {
  return `${value.toFixed(3)} ms`;
}

export function peakRssMiB(): number {
  // maxRSS is in KiB on Linux.
  return process.resourceUsage().maxRSS / 1024;
}

/** A one-line progress indicator on stderr, overwritten in place. */
export function progress(label: string, done: number, total: number): void {
  if (done % Math.max(1, Math.floor(total / 20)) !== 0 && done !== total) return;
  process.stderr.write(`\r${label}: ${done}/${total} (${Math.round((done / total) * 100)}%)${done === total ? '\n' : ''}`);
}
