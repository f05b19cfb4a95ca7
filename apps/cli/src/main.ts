#!/usr/bin/env node
import { Command } from 'commander';
import { PalisadeApiError, PalisadeClient } from '@palisade/sdk';
import { readConfig, writeConfig } from './config-store';

const program = new Command()
  .name('palisade')
  .description('Command-line client of the Palisade API')
  .option('--base-url <url>', 'the service base URL (default: saved config, then PALISADE_URL, then http://127.0.0.1:8080)')
  .option('--org <id>', 'organization id (X-Organization-ID)');

async function client(): Promise<PalisadeClient> {
  const options = program.opts<{ baseUrl?: string; org?: string }>();
  const config = await readConfig();
  return new PalisadeClient({
    baseUrl: options.baseUrl ?? process.env.PALISADE_URL ?? config.base_url ?? 'http://127.0.0.1:8080',
    accessToken: process.env.PALISADE_TOKEN ?? config.access_token,
    organizationId: options.org ?? config.organization_id,
  });
}

program
  .command('login')
  .description('sign in with email and password and save the access token')
  .requiredOption('--email <email>')
  .option('--password <password>', 'or PALISADE_PASSWORD')
  .action(async ({ email, password }: { email: string; password?: string }) => {
    const api = await client();
    const secret = password ?? process.env.PALISADE_PASSWORD;
    if (!secret) throw new Error('give --password or set PALISADE_PASSWORD');
    const tokens = await api.login(email, secret);
    const me = await api.withToken(tokens.access_token).me();
    const config = await readConfig();
    await writeConfig({
      ...config,
      base_url: api.http.defaults.baseURL,
      access_token: tokens.access_token,
      organization_id: config.organization_id ?? me.memberships[0]?.organization_id,
    });
    process.stdout.write(`signed in as ${me.principal.email}; token valid ${tokens.expires_in} s\n`);
  });

program
  .command('whoami')
  .description('show the signed-in principal and its organizations')
  .action(async () => {
    process.stdout.write(JSON.stringify(await (await client()).me(), null, 2) + '\n');
  });

program.parseAsync().catch((error: unknown) => {
  if (error instanceof PalisadeApiError) {
    process.stderr.write(`error ${error.status}: ${error.message}${error.body.hint ? `\nhint: ${error.body.hint}` : ''}\n`);
  } else {
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
  }
  process.exit(1);
});
