// The edge config generator (root scripts `npm run edge:generate` and `npm run edge:check`).
//
//   generate.ts                       write every checked-in target (palisade.conf, palisade.compose.conf)
//   generate.ts --check               exit 1 with a diff when a checked-in file differs from the route table
//   generate.ts --target local --listen 127.0.0.1:9000 --upstreams read=127.0.0.1:5001,... --out file
//                                     one target with other addresses (a missing plane keeps its default)
//   generate.ts ... --standalone DIR  also a complete DIR/nginx.conf (pid, logs, temp dirs under DIR)
//                                     for `nginx -p DIR -c DIR/nginx.conf -g 'daemon off;'`
//
// A route-table row the prefix and method rules would misroute gets a regex location of its own;
// a row on the wrong plane under a reserved prefix fails the run (see edge-routing.ts).
import { spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PLANES, ROUTE_TABLE, type TPlane } from '@palisade/contracts';
import { STANDALONE_TEMP_DIRS, TARGETS, renderEdgeConfig, renderStandaloneConfig, type TEdgeTarget, type TTargetName } from './edge-config';
import { EdgeRoutingError } from './edge-routing';

const HERE = __dirname;

interface TArgs {
  check: boolean;
  target?: TTargetName;
  listen?: string;
  upstreams: Partial<Record<TPlane, string>>;
  out?: string;
  standalone?: string;
  workers?: string;
}

function parseArgs(argv: string[]): TArgs {
  const args: TArgs = { check: false, upstreams: {} };
  for (let i = 0; i < argv.length; i += 1) {
    const flag = argv[i];
    const value = () => {
      const next = argv[++i];
      if (next === undefined) throw new Error(`${flag} needs a value`);
      return next;
    };
    if (flag === '--check') args.check = true;
    else if (flag === '--target') {
      const name = value();
      if (!(name in TARGETS)) throw new Error(`--target must be one of ${Object.keys(TARGETS).join(', ')}`);
      args.target = name as TTargetName;
    } else if (flag === '--listen') args.listen = value();
    else if (flag === '--out') args.out = path.resolve(value());
    else if (flag === '--standalone') args.standalone = path.resolve(value());
    else if (flag === '--workers') args.workers = value();
    else if (flag === '--upstreams') {
      for (const pair of value().split(',').filter(Boolean)) {
        const [plane, address] = pair.split('=');
        if (!(PLANES as readonly string[]).includes(plane) || !address) throw new Error(`bad --upstreams entry "${pair}" (plane=host:port)`);
        args.upstreams[plane as TPlane] = /^\d+$/.test(address) ? `127.0.0.1:${address}` : address;
      }
    } else throw new Error(`unknown argument ${flag}`);
  }
  return args;
}

function diff(expectedPath: string, actual: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'palisade-edge-'));
  try {
    const generated = path.join(dir, path.basename(expectedPath));
    writeFileSync(generated, actual);
    const result = spawnSync('diff', ['-u', '--label', `${expectedPath} (checked in)`, '--label', `${expectedPath} (generated)`, existsSync(expectedPath) ? expectedPath : '/dev/null', generated], { encoding: 'utf8' });
    return result.stdout || result.stderr || '(diff unavailable)';
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function checkedInTargets(check: boolean): number {
  let drift = 0;
  for (const target of Object.values(TARGETS)) {
    const file = path.join(HERE, target.file);
    const rendered = renderEdgeConfig(ROUTE_TABLE, target);
    const current = existsSync(file) ? readFileSync(file, 'utf8') : null;
    if (!check) {
      if (current !== rendered) writeFileSync(file, rendered);
      process.stdout.write(`${current === rendered ? 'unchanged' : 'wrote'} ${path.relative(process.cwd(), file)}\n`);
    } else if (current !== rendered) {
      drift += 1;
      process.stdout.write(diff(path.relative(process.cwd(), file), rendered));
    }
  }
  if (check && drift) {
    process.stderr.write(`\nedge config drifted from the route table: run \`npm run edge:generate\` and commit the result\n`);
  } else if (check) {
    process.stdout.write(`edge config matches the route table (${ROUTE_TABLE.length} routes)\n`);
  }
  return drift ? 1 : 0;
}

/** Temp dirs the workers write request bodies to: owned by the worker user when we are root. */
function prepareStandaloneDir(dir: string): string | undefined {
  const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  let owner: { uid: number; gid: number } | undefined;
  if (asRoot) {
    const id = (flag: string) => Number(spawnSync('id', [flag, 'www-data'], { encoding: 'utf8' }).stdout.trim());
    const uid = id('-u');
    const gid = id('-g');
    if (!Number.isInteger(uid) || !Number.isInteger(gid) || uid <= 0) throw new Error('running as root needs the www-data user for nginx workers');
    owner = { uid, gid };
  }
  // mkdtemp makes 0700 directories; the workers must be able to reach their temp dirs inside.
  if (owner) chmodSync(dir, 0o755);
  for (const sub of STANDALONE_TEMP_DIRS) {
    const full = path.join(dir, sub);
    mkdirSync(full, { recursive: true });
    if (owner) chownSync(full, owner.uid, owner.gid);
  }
  return owner ? 'www-data' : undefined;
}

function oneTarget(args: TArgs): number {
  const base = TARGETS[args.target ?? 'local'];
  const target: TEdgeTarget = { listen: args.listen ?? base.listen, upstreams: { ...base.upstreams, ...args.upstreams } };
  const rendered = renderEdgeConfig(ROUTE_TABLE, target);
  if (args.standalone) {
    mkdirSync(args.standalone, { recursive: true });
    const user = prepareStandaloneDir(args.standalone);
    writeFileSync(path.join(args.standalone, 'palisade.conf'), rendered);
    const workers = args.workers === undefined ? 1 : args.workers === 'auto' ? 'auto' : Number(args.workers);
    writeFileSync(path.join(args.standalone, 'nginx.conf'), renderStandaloneConfig({ prefix: args.standalone, user, workerProcesses: workers }));
    process.stdout.write(`${path.join(args.standalone, 'nginx.conf')}\n`);
  } else if (args.out) {
    writeFileSync(args.out, rendered);
    process.stdout.write(`${args.out}\n`);
  } else {
    process.stdout.write(rendered);
  }
  return 0;
}

function main(): number {
  const args = parseArgs(process.argv.slice(2));
  const custom = args.target || args.listen || args.out || args.standalone || Object.keys(args.upstreams).length;
  if (custom && args.check) throw new Error('--check compares the checked-in targets; it takes no other option');
  return custom ? oneTarget(args) : checkedInTargets(args.check);
}

try {
  process.exitCode = main();
} catch (error) {
  process.stderr.write(`edge:generate: ${error instanceof EdgeRoutingError || error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
