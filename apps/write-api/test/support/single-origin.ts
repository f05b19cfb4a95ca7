// The read and write planes behind one origin on a real port, as the edge puts them: GET and
// HEAD go to the read plane, everything else to the write plane. Enough for a browser or an
// OAuth client to see one hostname without starting nginx.
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestPlanes, type TTestPlanes } from '@palisade/testing';
import { buildReadApi } from '../../../read-api/src/app';
import { buildWriteApi } from '../../src/app';

export interface TSingleOrigin {
  baseUrl: string;
  planes: TTestPlanes;
  close(): Promise<void>;
}

export async function startSingleOrigin(overrides: Record<string, string> = {}): Promise<TSingleOrigin> {
  let handler: RequestListener = (_req, res) => res.writeHead(503).end();
  const server: Server = createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // PUBLIC_BASE_URL is this origin, so verification_uri points at the page served here.
  let planes: TTestPlanes;
  try {
    planes = await startTestPlanes({ write: buildWriteApi, read: buildReadApi }, { PUBLIC_BASE_URL: baseUrl, ...overrides });
  } catch (error) {
    server.close();
    throw error;
  }
  const read = planes.app('read');
  const write = planes.app('write');
  handler = (req, res) => (req.method === 'GET' || req.method === 'HEAD' ? read(req, res) : write(req, res));
  return {
    baseUrl,
    planes,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await planes.close();
    },
  };
}
