// Console output of the launcher: numbered steps with timings, coloured prefixes for child logs.
const useColour = process.stdout.isTTY && !process.env.NO_COLOR;
const paint = (code) => (text) => (useColour ? `\x1b[${code}m${text}\x1b[0m` : String(text));
export const colour = {
  dim: paint('2'), bold: paint('1'), red: paint('31'), green: paint('32'), yellow: paint('33'),
  blue: paint('34'), magenta: paint('35'), cyan: paint('36'), grey: paint('90'),
};
const PREFIX_COLOURS = [colour.cyan, colour.green, colour.magenta, colour.blue, colour.yellow, colour.grey];

// A terminal that went away must not crash the launcher before it has stopped its children.
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});

const started = Date.now();
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)}s`;

export function info(message) {
  process.stdout.write(`${colour.dim(`[${elapsed()}]`)} ${message}\n`);
}

export function warn(message) {
  process.stdout.write(`${colour.dim(`[${elapsed()}]`)} ${colour.yellow('!')} ${message}\n`);
}

export function fail(message) {
  process.stderr.write(`${colour.red('✖')} ${message}\n`);
}

/** Runs one named step, printing its start and how long it took (or that it failed). */
export async function step(title, fn) {
  const t0 = Date.now();
  info(`${colour.bold('▶')} ${title}`);
  try {
    const result = await fn();
    info(`${colour.green('✔')} ${title} ${colour.dim(`(${((Date.now() - t0) / 1000).toFixed(1)}s)`)}`);
    return result;
  } catch (error) {
    fail(`${title}: ${error instanceof Error ? error.message : String(error)}`);
    throw Object.assign(error instanceof Error ? error : new Error(String(error)), { reported: true });
  }
}

/** A stable colour per child name, padded so the log columns line up. */
export function prefixFor(name, width = 8) {
  let hash = 0;
  for (const ch of name) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0;
  return PREFIX_COLOURS[hash % PREFIX_COLOURS.length](name.padEnd(width)) + ' │';
}

const LEVELS = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO ', 40: 'WARN ', 50: 'ERROR', 60: 'FATAL' };
const QUIET_FIELDS = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'service', 'plane', 'v']);

/** A pino JSON line as `INFO  message key=value …`; anything else unchanged. */
export function formatLogLine(line) {
  if (!line.startsWith('{')) return line;
  let entry;
  try {
    entry = JSON.parse(line);
  } catch {
    return line;
  }
  if (typeof entry !== 'object' || entry === null || !('msg' in entry || 'level' in entry)) return line;
  const level = LEVELS[entry.level] ?? String(entry.level ?? '').padEnd(5);
  const paintLevel = entry.level >= 50 ? colour.red : entry.level >= 40 ? colour.yellow : colour.dim;
  const rest = Object.entries(entry)
    .filter(([key]) => !QUIET_FIELDS.has(key))
    .map(([key, value]) => {
      if (key === 'err' && value && typeof value === 'object' && value.stack) return `\n${value.stack}`;
      return `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`;
    })
    .join(' ');
  return `${paintLevel(level)} ${entry.msg ?? ''}${rest ? ` ${colour.dim(rest)}` : ''}`;
}
