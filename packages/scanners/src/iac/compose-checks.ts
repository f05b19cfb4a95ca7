import type { TPalisadeResult } from '@palisade/contracts';
import { iacResult, type TIacHit, type TPathSegment } from './iac-result';
import { IAC_RULES, imageTagProblem, isLiteralValue, isSecretName } from './iac-rules';
import { asArray, asRecord, type TYamlDoc } from './yaml-docs';

/** A compose file's services map, or undefined when the document is not a compose file. */
export function composeServices(doc: TYamlDoc): Record<string, unknown> | undefined {
  return asRecord(asRecord(doc.value)?.services);
}

export function checkComposeDocument(file: string, doc: TYamlDoc): TPalisadeResult[] {
  const services = composeServices(doc);
  if (!services) return [];
  const hits: TIacHit[] = [];
  for (const [name, raw] of Object.entries(services)) {
    const service = asRecord(raw);
    if (!service) continue;
    const S: TPathSegment[] = ['services', name];
    const hit = (h: Omit<TIacHit, 'file' | 'line'>) => hits.push({ ...h, file, line: doc.lineOf(h.path) });

    if (service.privileged === true) {
      hit({ rule: IAC_RULES.composePrivileged, path: [...S, 'privileged'], actual: 'true', expected: 'false', message: `Service ${name} runs privileged.` });
    }
    if (service.network_mode === 'host') {
      hit({ rule: IAC_RULES.composeHostNetwork, path: [...S, 'network_mode'], actual: 'host', expected: 'a bridge or user-defined network', message: `Service ${name} uses network_mode: host.` });
    }
    if (service.pid === 'host') {
      hit({ rule: IAC_RULES.composeHostPid, path: [...S, 'pid'], actual: 'host', expected: 'unset', message: `Service ${name} uses pid: host.` });
    }
    // With `build`, `image` names the image being built, not one pulled from a registry.
    if (typeof service.image === 'string' && service.build === undefined) {
      const problem = imageTagProblem(service.image);
      if (problem) {
        hit({
          rule: IAC_RULES.composeImageTag,
          path: [...S, 'image'],
          actual: service.image,
          expected: 'an explicit version tag or a digest',
          message: `Service ${name} uses image ${service.image} (${problem === 'latest' ? 'the latest tag' : 'no tag, which means latest'}).`,
        });
      }
    }
    for (const { key, value, path } of environmentEntries(service.environment, [...S, 'environment'])) {
      if (!isSecretName(key) || !isLiteralValue(value)) continue;
      hit({
        rule: IAC_RULES.composeSecretInEnv,
        path,
        actual: `literal value for ${key} (redacted)`,
        expected: 'a compose secret, an env_file kept out of the repository, or ${VARIABLE} interpolation',
        message: `Service ${name} sets ${key} to a literal value.`,
      });
    }
  }
  return hits.map(iacResult);
}

/** `environment` as a map (`KEY: value`) or a list (`- KEY=value`); a bare `- KEY` passes the host's value through. */
function environmentEntries(env: unknown, base: TPathSegment[]): Array<{ key: string; value: unknown; path: TPathSegment[] }> {
  const map = asRecord(env);
  if (map) return Object.entries(map).map(([key, value]) => ({ key, value, path: [...base, key] }));
  return asArray(env).flatMap((item, i) => {
    if (typeof item !== 'string' || !item.includes('=')) return [];
    const eq = item.indexOf('=');
    return [{ key: item.slice(0, eq), value: item.slice(eq + 1), path: [...base, i] }];
  });
}
