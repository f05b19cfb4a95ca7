import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Response } from 'express';
import { devicePageContract, devicePageScriptContract, devicePageStyleContract } from '@palisade/contracts';
import { defineHandler } from '@palisade/platform';
import type { TDevicePageLookup } from './device-page.lookup';
import { renderDevicePage } from './device-page.render';

// No inline script or style, no framing, no third-party anything; fetch only to this origin.
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

function secureHeaders(res: Response, contentType: string, cacheControl: string): void {
  res.setHeader('Content-Type', contentType);
  res.setHeader('Content-Security-Policy', CONTENT_SECURITY_POLICY);
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  // The URL carries the user code (verification_uri_complete): never send it elsewhere.
  res.setHeader('Referrer-Policy', 'no-referrer');
  res.setHeader('Cross-Origin-Opener-Policy', 'same-origin');
  res.setHeader('Cross-Origin-Resource-Policy', 'same-origin');
  res.setHeader('Cache-Control', cacheControl);
}

// The assets sit in src/pages/device; a build (dist/) without them falls back to the sources.
function readAsset(name: string): string {
  const candidates = [join(__dirname, '../../pages/device', name), join(__dirname, '../../../src/pages/device', name)];
  for (const path of candidates) {
    try {
      return readFileSync(path, 'utf8');
    } catch {
      // next candidate
    }
  }
  throw new Error(`device page asset ${name} not found (looked in ${candidates.join(', ')})`);
}

export const devicePageRoute = ({ lookup }: { lookup: TDevicePageLookup }) =>
  defineHandler(devicePageContract, async ({ query }, ctx) => {
    const request = await lookup.find(query.user_code, ctx.req.ip ?? 'unknown');
    secureHeaders(ctx.res, 'text/html; charset=utf-8', 'no-store');
    if (request.kind === 'too_many_guesses') ctx.res.setHeader('Retry-After', String(request.retryAfterSeconds));
    ctx.res.status(request.kind === 'too_many_guesses' ? 429 : 200).send(renderDevicePage(request));
    return { handled: true };
  });

export const devicePageScriptRoute = () => {
  const script = readAsset('app.js');
  return defineHandler(devicePageScriptContract, async (_input, ctx) => {
    secureHeaders(ctx.res, 'text/javascript; charset=utf-8', 'no-cache');
    ctx.res.status(200).send(script);
    return { handled: true };
  });
};

export const devicePageStyleRoute = () => {
  const style = readAsset('app.css');
  return defineHandler(devicePageStyleContract, async (_input, ctx) => {
    secureHeaders(ctx.res, 'text/css; charset=utf-8', 'no-cache');
    ctx.res.status(200).send(style);
    return { handled: true };
  });
};
