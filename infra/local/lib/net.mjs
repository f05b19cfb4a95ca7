// Port probes and readiness polling.
import net from 'node:net';

/** True when something accepts TCP connections on host:port. */
export function portAnswers(port, host = '127.0.0.1', timeoutMs = 500) {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    const done = (answer) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** True when a Redis on host:port answers PING. */
export function redisAnswers(port, host = '127.0.0.1', timeoutMs = 1000) {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    let reply = '';
    const done = (answer) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk.toString();
      if (reply.includes('\r\n')) done(reply.startsWith('+PONG') || reply.startsWith('-NOAUTH'));
    });
    socket.once('error', () => done(false));
  });
}

export async function waitFor(description, probe, { timeoutMs = 30_000, intervalMs = 150, abort } = {}) {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    const problem = abort?.();
    if (problem) throw new Error(`${description}: ${problem}`);
    try {
      const result = await probe();
      if (result === true) return;
      if (typeof result === 'string') last = result;
    } catch (error) {
      last = error.message;
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  throw new Error(`${description}: not ready after ${timeoutMs / 1000}s${last ? ` (${last})` : ''}`);
}

/** Polls an HTTP URL until it answers 200. */
export function waitForHttpOk(url, options) {
  return waitFor(url, async () => {
    const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
    const text = await res.text();
    return res.ok || `HTTP ${res.status} ${text.slice(0, 200)}`;
  }, options);
}
