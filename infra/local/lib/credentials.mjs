// The demo sign-in printed by `npm start`: the seed prints a password only when it creates the
// user (or resets it), so the launcher keeps it in .data/demo-credentials.json and resets the
// password when it no longer knows it.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DATA_DIR, run } from './shell.mjs';

const FILE = path.join(DATA_DIR, 'demo-credentials.json');

function lastJsonLine(stdout) {
  const line = stdout.trim().split('\n').reverse().find((l) => l.trim().startsWith('{'));
  if (!line) throw new Error(`the seed printed no JSON:\n${stdout}`);
  return JSON.parse(line);
}

async function seed(env, extra = []) {
  const { stdout } = await run('npm', ['run', '--silent', '-w', '@palisade/db', 'seed', ...(extra.length ? ['--', ...extra] : [])], { env, capture: true });
  return lastJsonLine(stdout);
}

export async function seedDemo({ env, baseUrl, ui }) {
  let result = await seed(env);
  const stored = existsSync(FILE) ? JSON.parse(readFileSync(FILE, 'utf8')) : null;
  if (!result.password) {
    const known = stored && stored.email === result.email && stored.organization_id === result.organization_id && stored.password;
    if (known) result = { ...result, password: stored.password };
    else {
      ui.info('the demo password is not on record; resetting it');
      result = await seed(env, ['--reset-password']);
    }
  }
  const credentials = { base_url: baseUrl, organization_id: result.organization_id, email: result.email, password: result.password };
  writeFileSync(FILE, `${JSON.stringify(credentials, null, 2)}\n`, { mode: 0o600 });
  return credentials;
}
