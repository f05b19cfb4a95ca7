// Child processes a test owns: each in its own process group (nginx forks workers, and a
// SIGKILLed master would orphan them), output captured for assertions, and all of them killed
// when the test process exits, even if a test file forgot its afterAll.
import { spawn, type ChildProcess } from 'node:child_process';

const MAX_CAPTURED_CHARS = 16 * 1024 * 1024;
const live = new Set<ManagedProcess>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const child of live) child.killGroup('SIGKILL');
  });
}

export interface TSpawnOptions {
  name: string;
  command: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
}

export class ManagedProcess {
  readonly name: string;
  private readonly child: ChildProcess;
  private stdoutText = '';
  private stderrText = '';
  private exitInfo: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  constructor(options: TSpawnOptions) {
    installExitHook();
    this.name = options.name;
    this.child = spawn(options.command, options.args, {
      cwd: options.cwd,
      env: options.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    live.add(this);
    this.child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      this.stdoutText = capped(this.stdoutText + chunk);
    });
    this.child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      this.stderrText = capped(this.stderrText + chunk);
    });
    this.exited = new Promise((resolve) => {
      const done = (code: number | null, signal: NodeJS.Signals | null) => {
        this.exitInfo ??= { code, signal };
        live.delete(this);
        resolve(this.exitInfo);
      };
      this.child.once('exit', done);
      this.child.once('error', (error) => {
        this.stderrText += `\nspawn failed: ${error.message}\n`;
        done(null, null);
      });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get stdout(): string {
    return this.stdoutText;
  }

  get stderr(): string {
    return this.stderrText;
  }

  get hasExited(): boolean {
    return this.exitInfo !== null;
  }

  describeExit(): string {
    if (!this.exitInfo) return `${this.name} is running`;
    const { code, signal } = this.exitInfo;
    return `${this.name} exited (${signal ? `signal ${signal}` : `code ${code}`})`;
  }

  killGroup(signal: NodeJS.Signals): void {
    if (this.hasExited || !this.child.pid) return;
    try {
      process.kill(-this.child.pid, signal);
    } catch {
      // Already gone.
    }
  }

  /** SIGTERM (the graceful shutdown every plane implements), SIGKILL after `graceMs`. */
  async stop(graceMs = 5000): Promise<void> {
    if (this.hasExited) return;
    this.killGroup('SIGTERM');
    const timer = setTimeout(() => this.killGroup('SIGKILL'), graceMs);
    await this.exited;
    clearTimeout(timer);
    // The group may still hold children of the leader (nginx workers); nothing of it may survive.
    this.killGroupAfterExit();
  }

  private killGroupAfterExit(): void {
    if (!this.child.pid) return;
    try {
      process.kill(-this.child.pid, 'SIGKILL');
    } catch {
      // No process left in the group.
    }
  }
}

function capped(text: string): string {
  return text.length > MAX_CAPTURED_CHARS ? text.slice(text.length - MAX_CAPTURED_CHARS) : text;
}

export function tail(text: string, lines = 40): string {
  return text.split('\n').slice(-lines).join('\n');
}
