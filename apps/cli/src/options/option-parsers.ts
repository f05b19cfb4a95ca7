// Commander argument parsers: a bad value is refused before any request, with commander's
// usual "option '...' argument '...' is invalid" message and exit code 1.
import { InvalidArgumentError } from 'commander';

/** For repeatable options (`--tool a --tool b`). */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

export function positiveNumber(value: string): number {
  const number = Number(value);
  if (!Number.isFinite(number) || number <= 0) throw new InvalidArgumentError('must be a positive number.');
  return number;
}

export function integerIn(min: number, max: number): (value: string) => number {
  return (value) => {
    const number = Number(value);
    if (!Number.isInteger(number) || number < min || number > max)
      throw new InvalidArgumentError(`must be a whole number from ${min} to ${max}.`);
    return number;
  };
}

/** `a,b` of a fixed vocabulary, each value once. */
export function commaListOf<const V extends readonly string[]>(values: V): (value: string) => V[number][] {
  return (raw) => {
    const parts = [
      ...new Set(
        raw
          .split(',')
          .map((part) => part.trim())
          .filter(Boolean),
      ),
    ];
    const unknown = parts.filter((part) => !values.includes(part));
    if (parts.length === 0 || unknown.length > 0) {
      throw new InvalidArgumentError(
        `must be a comma-separated list of ${values.join(', ')}${unknown.length ? ` (unknown: ${unknown.join(', ')})` : ''}.`,
      );
    }
    return parts as V[number][];
  };
}
