// Runs the real `palisade` entry point as a child process, from source, the way a user runs it.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { REPO_ROOT, tsNodeArgs } from '@palisade/testing/stack/edge-nginx';

const CLI_ENTRY = path.join(REPO_ROOT, 'apps/cli/src/main.ts');

export interface TCliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface TCliRun {
  child: ChildProcess;
  /** Resolves with the first match of `pattern` in the stream; rejects if the CLI exits first or `timeoutMs` passes. */
  waitFor(stream: 'stdout' | 'stderr', pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  exited: Promise<TCliResult>;
}

/** Children still running, so a failed test can stop what it started. */
const running = new Set<ChildProcess>();

/**
 * Starts `palisade <args>` with its own config file and base URL. The caller's PALISADE_TOKEN
 * or PALISADE_PASSWORD never leaks in: credentials come from the config file or `extra` only.
 */
export function startCli(args: string[], env: { configPath: string; baseUrl: string } & Record<string, string>): TCliRun {
  const { configPath, baseUrl, ...extra } = env;
  const inherited: NodeJS.ProcessEnv = { ...process.env };
  delete inherited.PALISADE_TOKEN;
  delete inherited.PALISADE_PASSWORD;
  const childEnv = { ...inherited, PALISADE_CONFIG: configPath, PALISADE_URL: baseUrl, ...extra };
  const child = spawn(process.execPath, [...tsNodeArgs(CLI_ENTRY), ...args], {
    cwd: REPO_ROOT,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  const output = { stdout: '', stderr: '' };
  const listeners = new Set<() => void>();
  const notify = () => listeners.forEach((listener) => listener());
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => ((output.stdout += chunk), notify()));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => ((output.stderr += chunk), notify()));
  const exited = new Promise<TCliResult>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      running.delete(child);
      notify();
      resolve({ code, ...output });
    });
  });

  const waitFor = (stream: 'stdout' | 'stderr', pattern: RegExp, timeoutMs = 20_000) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const timer = setTimeout(() => finish(new Error(`no ${pattern} on ${stream} within ${timeoutMs} ms:\n${output.stderr}`)), timeoutMs);
      const check = () => {
        const match = output[stream].match(pattern);
        if (match) finish(undefined, match);
        else if (child.exitCode !== null || child.signalCode !== null)
          finish(
            new Error(
              `the CLI exited (${child.exitCode ?? child.signalCode}) before ${pattern} on ${stream}:\n${output.stdout}${output.stderr}`,
            ),
          );
      };
      function finish(error?: Error, match?: RegExpMatchArray) {
        clearTimeout(timer);
        listeners.delete(check);
        if (error) reject(error);
        else resolve(match!);
      }
      listeners.add(check);
      check();
    });

  return { child, waitFor, exited };
}

/** `palisade <args>` to completion. */
export function runCli(args: string[], env: Parameters<typeof startCli>[1]): Promise<TCliResult> {
  return startCli(args, env).exited;
}

export function stopAllClis(): void {
  for (const child of running) child.kill('SIGKILL');
}
