import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { TPalisadeResult } from '@palisade/contracts';
import { isBinaryBuffer, isLockFile, walkFiles, type TWalkOptions } from '../walk-files';
import { checkComposeDocument } from './compose-checks';
import { checkDockerfile } from './dockerfile-checks';
import { checkKubernetesDocument } from './kubernetes-checks';
import { parseYamlDocuments } from './yaml-docs';

export type TIacFileKind = 'dockerfile' | 'compose' | 'yaml';

const DOCKERFILE = /^(?:dockerfile|containerfile)(?:\..+)?$|\.(?:dockerfile|containerfile)$/i;
const COMPOSE = /^(?:docker-)?compose(?:[.-][\w.-]+)?\.ya?ml$/i;

/** Which checks a file gets, from its name alone; null for files the IaC scanner ignores. */
export function iacFileKind(relPath: string): TIacFileKind | null {
  const base = path.posix.basename(relPath);
  if (DOCKERFILE.test(base)) return 'dockerfile';
  if (COMPOSE.test(base)) return 'compose';
  if (/\.ya?ml$/i.test(base) && !isLockFile(relPath)) return 'yaml';
  return null;
}

/**
 * Misconfigurations in one file. Kubernetes YAML is read as YAML 1.1, as the API server's
 * decoder does (`privileged: yes` is true there); compose files as YAML 1.2, as Compose does.
 */
export function scanIacText(relPath: string, text: string): TPalisadeResult[] {
  const kind = iacFileKind(relPath);
  if (kind === 'dockerfile') return checkDockerfile(relPath, text);
  if (kind === 'compose') return parseYamlDocuments(text, '1.2').flatMap((doc) => checkComposeDocument(relPath, doc));
  if (kind === 'yaml') return parseYamlDocuments(text, '1.1').flatMap((doc) => checkKubernetesDocument(relPath, doc));
  return [];
}

export async function scanDirectoryForIac(dir: string, options: TWalkOptions = {}): Promise<TPalisadeResult[]> {
  const results: TPalisadeResult[] = [];
  for await (const file of walkFiles(dir, options)) {
    if (!iacFileKind(file.relPath)) continue;
    const buffer = await readFile(file.absPath);
    if (isBinaryBuffer(buffer)) continue;
    results.push(...scanIacText(file.relPath, buffer.toString('utf8')));
  }
  return results;
}
