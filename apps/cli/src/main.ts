#!/usr/bin/env node
// The `palisade` command: wires the commands and turns any error into one line and an exit code.
import { Command } from 'commander';
import { DEFAULT_BASE_URL } from './cli-context';
import { registerFindingsCommand } from './commands/findings.command';
import { registerLoginCommand } from './commands/login.command';
import { registerScanCommand } from './commands/scan.command';
import { registerWhoamiCommand } from './commands/whoami.command';
import { exitCodeFor, formatError } from './output/error.format';

const program = new Command()
  .name('palisade')
  .description('Command-line client of the Palisade API')
  .option('--base-url <url>', `the service base URL (default: PALISADE_URL, then the saved config, then ${DEFAULT_BASE_URL})`)
  .option('--org <id>', 'organization id to act in (X-Organization-ID; default: the saved one)');

registerLoginCommand(program);
registerWhoamiCommand(program);
registerScanCommand(program);
registerFindingsCommand(program);

program.parseAsync().catch((error: unknown) => {
  // One line, never a stack: the message says what went wrong, the correlation id where to look.
  process.stderr.write(`${formatError(error)}\n`);
  // exitCode, not exit(): stdout written before the error still reaches a pipe in full.
  process.exitCode = exitCodeFor(error);
});
