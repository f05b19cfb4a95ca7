import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

export interface TCliConfig {
  base_url?: string;
  access_token?: string;
  organization_id?: string;
}

/** ~/.config/palisade/config.json, mode 0600: it holds a bearer token. */
export function configPath(): string {
  return process.env.PALISADE_CONFIG ?? join(process.env.XDG_CONFIG_HOME ?? join(homedir(), '.config'), 'palisade', 'config.json');
}

export async function readConfig(): Promise<TCliConfig> {
  try {
    return JSON.parse(await readFile(configPath(), 'utf8')) as TCliConfig;
  } catch {
    return {};
  }
}

export async function writeConfig(config: TCliConfig): Promise<void> {
  await mkdir(dirname(configPath()), { recursive: true });
  await writeFile(configPath(), JSON.stringify(config, null, 2), { mode: 0o600 });
}
