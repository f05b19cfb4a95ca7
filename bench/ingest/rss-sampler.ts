import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** The pid of the process listening on a local TCP port (via /proc/net/tcp* and /proc/<pid>/fd). */
export function pidListeningOn(port: number): number {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      // st 0A = LISTEN
      if (cols.length > 9 && cols[1].endsWith(`:${hexPort}`) && cols[3] === '0A') inodes.add(cols[9]);
    }
  }
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${entry}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        const link = readlinkSync(`/proc/${entry}/fd/${fd}`);
        const match = /^socket:\[(\d+)\]$/.exec(link);
        if (match && inodes.has(match[1])) return Number(entry);
      } catch {
        // fd closed meanwhile
      }
    }
  }
  throw new Error(`no process listens on port ${port}`);
}

function statusKiB(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) : NaN;
}

/** Polls VmRSS every `intervalMs`; `stop()` returns the peak seen and the kernel's VmHWM. */
export function sampleRss(pid: number, intervalMs = 20) {
  const startRss = statusKiB(pid, 'VmRSS');
  let peak = startRss;
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, statusKiB(pid, 'VmRSS'));
    } catch {
      // the process ended
    }
  }, intervalMs);
  return {
    startMiB: startRss / 1024,
    stop(): { peakMiB: number; hwmMiB: number } {
      clearInterval(timer);
      peak = Math.max(peak, statusKiB(pid, 'VmRSS'));
      return { peakMiB: peak / 1024, hwmMiB: statusKiB(pid, 'VmHWM') / 1024 };
    },
  };
}
