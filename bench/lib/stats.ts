/** Percentiles over raw samples (nearest-rank): what every benchmark here prints. */
export function percentile(samples: number[], p: number): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

export function summarize(samples: number[]) {
  return { n: samples.length, p50: percentile(samples, 50), p99: percentile(samples, 99), max: Math.max(...samples), mean: mean(samples) };
}

export function mean(samples: number[]): number {
  return samples.reduce((sum, x) => sum + x, 0) / samples.length;
}

/** b[i] − a[i] for samples taken in the same round: the per-pair cost of b over a. */
export function pairedDeltas(a: number[], b: number[]): number[] {
  if (a.length !== b.length) throw new Error(`paired series differ in length: ${a.length} vs ${b.length}`);
  return a.map((x, i) => b[i] - x);
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

/** A stage of a benchmark, on stderr so stdout stays the table. */
export function stage(message: string): void {
  process.stderr.write(`${message}\n`);
}

/** Fisher–Yates, in place. */
export function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}
