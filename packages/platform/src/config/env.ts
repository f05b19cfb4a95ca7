import { z } from 'zod';

const ZBooleanFlag = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

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
  /** Wraps the private halves of the token signing keys (AES-256-GCM); base64 of 32 bytes. */
  KEY_ENCRYPTION_KEY: z
    .string()
    .refine((value) => Buffer.from(value, 'base64').length === 32, 'base64 of exactly 32 bytes'),
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
