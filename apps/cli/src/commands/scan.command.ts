import type { Command } from 'commander';
import type { TCreateScanBody, TScan, TTarget } from '@palisade/contracts';
import { clientFor } from '../cli-context';
import { CliError } from '../cli-error';
import { collect, positiveNumber } from '../options/option-parsers';
import { ProgressLine } from '../output/progress-line';
import { formatScanProgress, formatScanSummary } from '../output/scan-summary.format';
import { scanExitCode, waitForScan } from '../scan/scan-wait.poller';

interface TScanOptions {
  ref?: string;
  tool?: string[];
  image?: string;
  wait?: boolean;
  timeout: number;
  pollInterval: number;
  json?: boolean;
}

export function registerScanCommand(program: Command): void {
  program
    .command('scan')
    .description('start a scan of a repository (or of a container image with --image)')
    .argument('[repository-url]', 'the repository to scan: an https://, http://, ssh:// or git:// URL (file:// where the deployment enables it)')
    .option('--ref <ref>', 'branch, tag or commit to scan (repositories only)')
    .option('--tool <name>', 'a tool to run; repeat for several (default: the automatic plan chooses)', collect)
    .option('--image <reference>', 'scan this container image instead of a repository')
    .option('--wait', 'wait for the scan to end, showing progress; exit 0 succeeded, 1 failed, 2 partial or timed out')
    .option('--timeout <seconds>', 'with --wait: stop waiting after this long', positiveNumber, 3600)
    .option('--poll-interval <seconds>', 'with --wait: how often to read the scan', positiveNumber, 2)
    .option('--json', 'print the (final) scan as JSON instead of a summary')
    .action(async (repositoryUrl: string | undefined, options: TScanOptions, command: Command) => {
      const body: TCreateScanBody = { target: targetOf(repositoryUrl, options), ...(options.tool?.length ? { tools: options.tool } : {}) };
      const api = await clientFor(command);
      const created = await api.createScan(body);
      if (created.status === 202) {
        // Not reachable with one target; printed rather than dropped should the service change.
        process.stdout.write(JSON.stringify(created.scanRequest, null, 2) + '\n');
        return;
      }
      if (!options.wait) {
        process.stdout.write(JSON.stringify(created.scan, null, 2) + '\n');
        return;
      }
      announce(created.scan);
      const progress = new ProgressLine();
      const result = await waitForScan({
        api,
        scanId: created.scan.scan_id,
        timeoutMs: options.timeout * 1000,
        intervalMs: options.pollInterval * 1000,
        onProgress: (scan, elapsedMs) => progress.update(formatScanProgress(scan, elapsedMs / 1000)),
      });
      progress.done();
      process.stdout.write(
        options.json
          ? JSON.stringify(result.scan, null, 2) + '\n'
          : formatScanSummary(result.scan, { timedOut: result.timedOut, seconds: result.elapsedMs / 1000 }),
      );
      process.exitCode = scanExitCode(result);
    });
}

function targetOf(repositoryUrl: string | undefined, options: TScanOptions): TTarget {
  if (options.image) {
    if (repositoryUrl) throw new CliError('error: give a repository URL or --image, not both');
    if (options.ref) throw new CliError('error: --ref applies to repositories, not images');
    return { kind: 'image', reference: options.image };
  }
  if (!repositoryUrl) throw new CliError('error: give the repository URL to scan (or --image <reference>)');
  return { kind: 'repository', url: repositoryUrl, ...(options.ref ? { ref: options.ref } : {}) };
}

/**
 * Says which scan is being waited for. An external tool's credential is shown only in this
 * answer, so while the CLI waits it is written out for whoever runs that scanner.
 */
function announce(scan: TScan): void {
  const tools = scan.tools.length ? scan.tools.map((tool) => tool.tool).join(', ') : 'chosen after checkout';
  process.stderr.write(`scan ${scan.scan_id} created (${scan.plan} plan; tools: ${tools})\n`);
  for (const tool of scan.tools) {
    if (tool.callback) {
      process.stderr.write(
        `${tool.tool} is external: post its report to ${tool.callback.url} with "Authorization: Bearer ${tool.callback.token}" (valid until ${tool.callback.expires_at})\n`,
      );
    }
  }
}
