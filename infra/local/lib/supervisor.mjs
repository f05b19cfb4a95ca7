// The launcher's children: each in its own process group (so Ctrl-C reaches only the launcher,
// which then stops them in order), logs prefixed on the console and kept in .data/logs, a crash
// of any of them reported once, and a pid file so a launcher that was killed outright has its
// orphans cleaned up on the next run.
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DATA_DIR } from './shell.mjs';
import { formatLogLine, prefixFor } from './ui.mjs';

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function killGroup(pid, signal) {
  try {
    process.kill(-pid, signal);
  } catch {
    // The group is gone.
  }
}

export class Supervisor {
  /** @param {{ name: string, ui: typeof import('./ui.mjs') }} options  name: which launcher (start, test) */
  constructor({ name, ui }) {
    this.ui = ui;
    this.children = [];
    this.stopping = false;
    this.crashHandlers = [];
    this.logDir = path.join(DATA_DIR, 'logs');
    this.pidFile = path.join(DATA_DIR, 'run', `${name}.json`);
    mkdirSync(this.logDir, { recursive: true });
    mkdirSync(path.dirname(this.pidFile), { recursive: true });
  }

  /** Stops what a previous launcher of the same name left running (it was killed, not stopped). */
  async reapLeftovers() {
    if (!existsSync(this.pidFile)) return;
    let recorded = [];
    try {
      recorded = JSON.parse(readFileSync(this.pidFile, 'utf8'));
    } catch {
      // Unreadable: nothing to reap.
    }
    const left = recorded.filter(({ pid, command }) => alive(pid) && this.commandOf(pid).includes(command));
    for (const { pid, name } of left) {
      this.ui.warn(`stopping ${name} (pid ${pid}) left over from an earlier run`);
      killGroup(pid, 'SIGTERM');
    }
    for (let i = 0; i < 50 && left.some(({ pid }) => alive(pid)); i += 1) await sleep(100);
    for (const { pid } of left) killGroup(pid, 'SIGKILL');
    rmSync(this.pidFile, { force: true });
  }

  commandOf(pid) {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
    } catch {
      return '';
    }
  }

  /** Called once with (child, description) when a child exits while we are not stopping. */
  onCrash(handler) {
    this.crashHandlers.push(handler);
  }

  /**
   * @param {object} o
   * @param {string} o.name        console prefix and log file name
   * @param {number} o.tier        stop order: lower tiers stop first (edge 0, planes and worker 1, redis 2, postgres 3)
   * @param {boolean} [o.echo]     print the output on the console (always kept in .data/logs/<name>.log)
   * @param {NodeJS.Signals} [o.stopSignal]
   */
  start({ name, command, args, env = process.env, cwd, uid, gid, tier, echo = true, stopSignal = 'SIGTERM', graceMs = 15_000 }) {
    const proc = spawn(command, args, { cwd, env, uid, gid, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const logFile = createWriteStream(path.join(this.logDir, `${name}.log`), { flags: 'a' });
    const child = { name, proc, tier, stopSignal, graceMs, lastLines: [], exitInfo: null };
    child.exited = new Promise((resolve) => {
      proc.once('error', (error) => {
        child.lastLines.push(`spawn failed: ${error.message}`);
        child.exitInfo ??= { code: null, signal: null };
        resolve(child.exitInfo);
      });
      proc.once('exit', (code, signal) => {
        child.exitInfo ??= { code, signal };
        resolve(child.exitInfo);
      });
    }).then((info) => {
      logFile.end();
      this.writePidFile();
      if (!this.stopping) {
        const how = info.signal ? `was killed by ${info.signal}` : `exited with code ${info.code}`;
        for (const handler of this.crashHandlers) handler(child, `${name} ${how}`);
      }
      return info;
    });
    const prefix = prefixFor(name);
    for (const stream of [proc.stdout, proc.stderr]) {
      let buffer = '';
      stream.setEncoding('utf8').on('data', (chunk) => {
        logFile.write(chunk);
        buffer += chunk;
        const lines = buffer.split('\n');
        buffer = lines.pop();
        for (const line of lines) {
          child.lastLines.push(line);
          if (child.lastLines.length > 40) child.lastLines.shift();
          if (echo && line.trim()) process.stdout.write(`${prefix} ${formatLogLine(line)}\n`);
        }
      });
    }
    this.children.push(child);
    this.writePidFile();
    return child;
  }

  writePidFile() {
    const running = this.children
      .filter((c) => !c.exitInfo && c.proc.pid)
      .map((c) => ({ name: c.name, pid: c.proc.pid, command: path.basename(c.proc.spawnfile) }));
    if (running.length) writeFileSync(this.pidFile, JSON.stringify(running));
    else rmSync(this.pidFile, { force: true });
  }

  /** Tier by tier: signal, wait for the grace period, then kill what is left of each group. */
  async stopAll() {
    this.stopping = true;
    const tiers = [...new Set(this.children.map((c) => c.tier))].sort((a, b) => a - b);
    for (const tier of tiers) {
      const group = this.children.filter((c) => c.tier === tier && c.proc.pid);
      await Promise.all(group.map(async (child) => {
        if (!child.exitInfo) {
          killGroup(child.proc.pid, child.stopSignal);
          const timer = setTimeout(() => {
            this.ui.warn(`${child.name} did not stop within ${child.graceMs / 1000}s; killing it`);
            killGroup(child.proc.pid, 'SIGKILL');
          }, child.graceMs);
          await child.exited;
          clearTimeout(timer);
        }
        killGroup(child.proc.pid, 'SIGKILL');
      }));
    }
    rmSync(this.pidFile, { force: true });
  }
}
