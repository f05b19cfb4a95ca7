import type { TScan, TScanStatus } from '@palisade/contracts';
import { scanExitCode, waitForScan } from './scan-wait.poller';

const scan = (status: TScanStatus) => ({ scan_id: 'scan-1', status, tools: [] }) as unknown as TScan;

describe('waitForScan', () => {
  function harness(statuses: TScanStatus[]) {
    let clock = 0;
    const api = { getScan: jest.fn(async () => scan(statuses.shift() ?? 'running')) };
    const options = {
      api,
      scanId: 'scan-1',
      intervalMs: 1000,
      sleep: async (ms: number) => void (clock += ms),
      now: () => clock,
    };
    return { api, options };
  }

  it('reads the scan until it reaches a final status', async () => {
    const h = harness(['queued', 'running', 'partial']);
    const result = await waitForScan({ ...h.options, timeoutMs: 60_000 });
    expect(result).toMatchObject({ timedOut: false, elapsedMs: 2000, scan: { status: 'partial' } });
    expect(h.api.getScan).toHaveBeenCalledTimes(3);
  });

  it('gives up at the timeout after one last read, returning the last state', async () => {
    const h = harness([]);
    const result = await waitForScan({ ...h.options, timeoutMs: 2500 });
    expect(result).toMatchObject({ timedOut: true, elapsedMs: 2500, scan: { status: 'running' } });
    // At 0, 1000, 2000 and, cut short, 2500 ms.
    expect(h.api.getScan).toHaveBeenCalledTimes(4);
  });
});

describe('scanExitCode', () => {
  it.each([
    ['succeeded', 0],
    ['failed', 1],
    ['cancelled', 1],
    ['partial', 2],
  ] as const)('exits %s scans with %i', (status, code) => {
    expect(scanExitCode({ scan: scan(status), timedOut: false })).toBe(code);
  });

  it('exits 2 when the wait ran out, whatever the last status', () => {
    expect(scanExitCode({ scan: scan('running'), timedOut: true })).toBe(2);
  });
});
