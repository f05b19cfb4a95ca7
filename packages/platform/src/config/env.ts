import { isIP } from 'node:net';
import { z } from 'zod';

const ZBooleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

/** What Express's `trust proxy` setting takes: a hop count, true/false, or a list of addresses. */
export type TTrustProxy = number | boolean | string[];

const TRUST_PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * Parses TRUST_PROXY the way Express reads `trust proxy`, but refuses at boot what Express would
 * only reject on the first request (or silently misread): a hop count (`1`), `true`/`false`, or
 * a comma list of the names loopback, linklocal, uniquelocal, addresses and CIDRs
 * (`10.0.0.0/8, fd00::/8`). The planes take req.ip, which the login throttle keys on, from the
 * X-Forwarded-For entries these proxies add; anything not trusted is the client.
 */
export function parseTrustProxy(raw: string): { ok: true; value: TTrustProxy } | { ok: false; problem: string } {
  const text = raw.trim();
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    return hops <= 32 ? { ok: true, value: hops } : { ok: false, problem: 'a hop count must be at most 32' };
  }
  if (text === 'true' || text === 'false') return { ok: true, value: text === 'true' };
  const entries = text.split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
  if (entries.length === 0) return { ok: false, problem: 'empty' };
  const bad = entries.filter((entry) => !isTrustEntry(entry));
  if (bad.length) {
    return { ok: false, problem: `not an address, CIDR or one of loopback, linklocal, uniquelocal: ${bad.join(', ')}` };
  }
  return { ok: true, value: entries };
}

function isTrustEntry(entry: string): boolean {
  if (TRUST_PROXY_NAMES.has(entry)) return true;
  const slash = entry.indexOf('/');
  const address = slash === -1 ? entry : entry.slice(0, slash);
  const family = isIP(address);
  if (family === 0) return false;
  if (slash === -1) return true;
  const range = entry.slice(slash + 1);
  if (/^\d{1,3}$/.test(range)) return Number(range) <= (family === 4 ? 32 : 128);
  // proxy-addr also takes an IPv4 netmask (10.0.0.0/255.0.0.0).
  return family === 4 && isIP(range) === 4;
}

const ZTrustProxy = z
  .string()
  .max(2048)
  .transform((raw, ctx): TTrustProxy => {
    const parsed = parseTrustProxy(raw);
    if (parsed.ok) return parsed.value;
    ctx.addIssue({ code: 'custom', message: parsed.problem });
    return z.NEVER;
  });

/** The environment every plane reads. Secrets have no default: a missing one stops the boot. */
export const ZBaseEnv = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  HOST: z.string().default('127.0.0.1'),
  PORT: z.coerce.number().int().min(0).max(65535),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, 'a postgresql:// URL'),
  DATABASE_READ_URL: z.string().regex(/^postgres(ql)?:\/\//, 'a postgresql:// URL').optional(),
  REDIS_URL: z.string().regex(/^rediss?:\/\//, 'a redis:// URL'),
  REDIS_PREFIX: z.string().min(1).max(128).default('palisade:'),
  PUBLIC_BASE_URL: z.url().default('http://127.0.0.1:8080'),
  OPENAPI_ENABLED: ZBooleanFlag.default(false),
  /** Mounts /api/v2/diagnostics/* (echo, crash) — for the edge proof tests, never in production. */
  DIAGNOSTICS_ENABLED: ZBooleanFlag.default(false),
  /**
   * Lets scans clone `file://` repositories, paths on the worker's own disk (the write plane
   * refuses them at creation and the worker at checkout otherwise). For a single-user local
   * stack and the tests: in a shared deployment a tenant could read any repository on that disk.
   */
  FILE_REPOSITORIES_ENABLED: ZBooleanFlag.default(false),
  /** Wraps the private halves of the token signing keys (AES-256-GCM); base64 of 32 bytes. */
  KEY_ENCRYPTION_KEY: z
    .string()
    .refine((value) => Buffer.from(value, 'base64').length === 32, 'base64 of exactly 32 bytes'),
  /**
   * Which proxies may tell a plane the client's address (X-Forwarded-For). `loopback` fits
   * `npm start`, where the edge is on the same host; where the edge is another host (compose,
   * Kubernetes) name its network, e.g. `uniquelocal` or a CIDR.
   */
  TRUST_PROXY: ZTrustProxy.default(['loopback']),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(100).default(10_000),
  /** Device flow (RFC 8628, write plane): lifetime of a device/user code, and the minimum poll interval. */
  DEVICE_CODE_TTL_SECONDS: z.coerce.number().int().min(1).max(3600).default(600),
  DEVICE_POLL_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(60).default(5),
});
export type TBaseEnv = z.infer<typeof ZBaseEnv>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  ${problems.join('\n  ')}`);
  }
}

/** Parses the environment once, at boot; the result is frozen. */
export function loadConfig<T extends z.ZodType>(schema: T, env: NodeJS.ProcessEnv = process.env): Readonly<z.infer<T>> {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.') || '(env)'}: ${issue.message}`));
  }
  return Object.freeze(parsed.data) as Readonly<z.infer<T>>;
}
