import type { Command } from 'commander';
import { clientFor } from '../cli-context';

export function registerWhoamiCommand(program: Command): void {
  program
    .command('whoami')
    .description('show the signed-in principal and its organizations')
    .action(async (_options: unknown, command: Command) => {
      const api = await clientFor(command);
      process.stdout.write(JSON.stringify(await api.me(), null, 2) + '\n');
    });
}
