import type { Command } from 'commander';
import type { PalisadeClient } from '@palisade/sdk';
import { clientFor, globalOptions } from '../cli-context';
import { CliError } from '../cli-error';
import { runDeviceLogin } from '../device/device-login.flow';
import { saveSession } from '../session-store';

interface TLoginOptions {
  device?: boolean;
  email?: string;
  password?: string;
}

// Only `api`: the CLI saves no refresh token yet, and asking for offline_access would leave
// an unused session (and a long-lived secret) behind on every sign-in.
const DEVICE_SCOPE = 'api';

export function registerLoginCommand(program: Command): void {
  program
    .command('login')
    .description('sign in and save the access token: in a browser with --device, or with --email and a password')
    .option('--device', 'approve this sign-in in a browser (OAuth device flow, RFC 8628); use --org to choose the organization')
    .option('--email <email>', 'sign in with this email and a password')
    .option('--password <password>', 'the password (or set PALISADE_PASSWORD)')
    .action(async (options: TLoginOptions, command: Command) => {
      if (options.device && options.email) throw new CliError('error: give either --device or --email, not both');
      if (options.device) return deviceLogin(command);
      if (options.email) return passwordLogin(command, options.email, options.password ?? process.env.PALISADE_PASSWORD);
      throw new CliError('error: give --device to sign in in a browser, or --email (with --password or PALISADE_PASSWORD)');
    });
}

async function passwordLogin(command: Command, email: string, password: string | undefined): Promise<void> {
  if (!password) throw new CliError('error: give --password or set PALISADE_PASSWORD');
  const api = await clientFor(command, { anonymous: true });
  const tokens = await api.login(email, password);
  await finishLogin(command, api, tokens.access_token, tokens.expires_in);
}

async function deviceLogin(command: Command): Promise<void> {
  const api = await clientFor(command, { anonymous: true });
  const tokens = await runDeviceLogin({
    api,
    scope: DEVICE_SCOPE,
    onCode: (code) => {
      process.stderr.write(
        `To sign in, open this page in a browser:\n\n  ${code.verification_uri_complete}\n\n` +
          `and check that it shows the code: ${code.user_code}\n` +
          `(or open ${code.verification_uri} and enter the code). It expires in ${Math.round(code.expires_in / 60)} min.\n` +
          'Waiting for approval',
      );
    },
    // One dot per poll: visible progress that reads the same on a terminal and in a CI log.
    onPoll: (result, interval) => {
      if (result.ok) process.stderr.write(' approved\n');
      else if (result.error === 'slow_down') process.stderr.write(`(slowing down: every ${interval} s)`);
      else if (result.error === 'authorization_pending') process.stderr.write('.');
      else process.stderr.write('\n');
    },
  });
  await finishLogin(command, api, tokens.access_token, tokens.expires_in);
}

/** Saves the token with the organization to act in, and says who signed in. */
async function finishLogin(command: Command, api: PalisadeClient, accessToken: string, expiresIn: number): Promise<void> {
  const me = await api.withToken(accessToken).me();
  const session = await saveSession(api, accessToken, me, globalOptions(command).org);
  if (session.warning) process.stderr.write(`warning: ${session.warning}; saved it anyway\n`);
  const organization = me.memberships.find((membership) => membership.organization_id === session.organizationId);
  const where = organization
    ? ` in ${organization.organization_name} (${organization.organization_id})`
    : session.organizationId
      ? ` in ${session.organizationId}`
      : '';
  process.stdout.write(`signed in as ${me.principal.email ?? me.principal.id}${where}; token valid ${expiresIn} s\n`);
}
