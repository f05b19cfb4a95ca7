import pino, { type Logger } from 'pino';
import type { TPlane } from '@palisade/contracts';

export type { Logger };

/**
 * JSON logs, one line an event. Secrets and report bodies are never logged: the redact list
 * covers the places they could slip in through request logging.
 */
export function createLogger(options: { service: string; plane?: TPlane | 'worker'; level: string }): Logger {
  return pino({
    level: options.level,
    base: { service: options.service, plane: options.plane },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'res.headers["set-cookie"]',
        '*.password',
        '*.token',
        '*.access_token',
        '*.refresh_token',
        '*.secret',
      ],
      censor: '[redacted]',
    },
  });
}
