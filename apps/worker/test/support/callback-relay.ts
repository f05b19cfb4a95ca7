// An HTTP relay between a worker process and the callback plane, so that a test can stop a
// chosen report at a chosen byte and kill the worker exactly there. Everything else passes
// through unchanged. What the plane sees is what it would see from the worker itself: when the
// worker's connection goes away before the whole body was sent, the plane's connection goes too
// (a truncated body); when the whole body was sent, the plane finishes reading it and its answer
// goes nowhere.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type TRelayRule = {
  /** Forward only this many bytes of the body; the rest never reaches the plane (the worker waits for an answer). */
  cutAt?: (contentLength: number) => number;
  /** Called synchronously once `cutAt` bytes (or the whole body) went to the plane. */
  onForwarded?: (bytes: number, whole: boolean) => void;
};

export type TCallbackRelay = {
  url: string;
  /** The rule for the next request whose path matches (used once). */
  on(path: RegExp, rule: TRelayRule): void;
  close(): Promise<void>;
};

export async function startCallbackRelay(upstream: { host: string; port: number }): Promise<TCallbackRelay> {
  const rules: Array<{ path: RegExp; rule: TRelayRule }> = [];
  const agent = new http.Agent({ keepAlive: true });

  const relay = (req: IncomingMessage, res: ServerResponse) => {
    const at = rules.findIndex((entry) => entry.path.test(req.url ?? ''));
    const rule = at === -1 ? undefined : rules.splice(at, 1)[0].rule;
    const length = Number(req.headers['content-length'] ?? 0);
    const limit = rule?.cutAt ? Math.min(length, rule.cutAt(length)) : Infinity;
    let forwarded = 0;
    let bodySent = false;

    const up = http.request({ ...upstream, agent, method: req.method, path: req.url, headers: req.headers }, (upRes) => {
      if (res.destroyed || res.writableEnded) return void upRes.resume();
      res.writeHead(upRes.statusCode ?? 502, upRes.headers);
      upRes.pipe(res);
    });
    up.on('error', () => res.destroy());
    // The worker is gone: mid-body, the plane loses the connection too; after it, nothing changes.
    res.on('close', () => {
      if (!bodySent) up.destroy();
    });

    const cut = limit < length;
    req.on('data', (chunk: Buffer) => {
      // Past the cut, bytes are read and dropped (not left unread), so that the worker going away
      // is seen at once: a paused socket would not notice its peer closing.
      const room = limit - forwarded;
      if (room <= 0) return;
      const piece = chunk.length > room ? chunk.subarray(0, room) : chunk;
      forwarded += piece.length;
      up.write(piece);
      if (cut && forwarded >= limit) rule?.onForwarded?.(forwarded, false);
    });
    req.on('end', () => {
      if (cut) return;
      bodySent = true;
      up.end();
      rule?.onForwarded?.(forwarded, true);
    });
  };

  const server = http.createServer(relay);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    on: (path, rule) => void rules.push({ path, rule }),
    async close() {
      server.closeAllConnections();
      agent.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
