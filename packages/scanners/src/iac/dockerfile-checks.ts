import type { TPalisadeResult } from '@palisade/contracts';
import { parseDockerfile, parseKeyValues, splitWords, type TDockerInstruction } from './dockerfile-parser';
import { iacResult, type TIacHit } from './iac-result';
import { IAC_RULES, imageTagProblem, isLiteralValue, isSecretName } from './iac-rules';

type TStage = { index: number; from: TDockerInstruction; name?: string; parent?: TStage; user?: TDockerInstruction };

const ROOT_USER = /^(?:root|0)(?::.*)?$/i;

function fromParts(args: string): { image: string; alias?: string } {
  const words = splitWords(args).filter((w) => !w.startsWith('--'));
  const asIndex = words.findIndex((w) => w.toUpperCase() === 'AS');
  return { image: words[0] ?? '', alias: asIndex > 0 ? words[asIndex + 1] : undefined };
}

/** The sources of an ADD, in shell or JSON form, and whether it pins a checksum. */
function addSources(args: string): { sources: string[]; checksum: boolean } {
  const trimmed = args.trim();
  const flags = [...trimmed.matchAll(/(?:^|\s)--([a-z-]+)(?:=\S*)?/g)].map((m) => m[1]);
  const rest = trimmed.replace(/(?:^|\s)--[a-z-]+(?:=\S*)?/g, ' ').trim();
  let words: string[] = [];
  if (rest.startsWith('[')) {
    try {
      const parsed = JSON.parse(rest) as unknown;
      if (Array.isArray(parsed)) words = parsed.filter((w): w is string => typeof w === 'string');
    } catch {
      words = splitWords(rest);
    }
  } else words = splitWords(rest);
  return { sources: words.slice(0, -1), checksum: flags.includes('checksum') };
}

/** Findings for one Dockerfile. Paths name the stage and instruction: `stages[1].USER`, `stages[0].ENV.DB_PASSWORD`. */
export function checkDockerfile(file: string, text: string): TPalisadeResult[] {
  const hits: TIacHit[] = [];
  const stages: TStage[] = [];
  let current: TStage | undefined;
  const addCounts = new Map<number, number>();

  for (const ins of parseDockerfile(text)) {
    if (ins.keyword === 'FROM') {
      const { image, alias } = fromParts(ins.args);
      const parent = stages.find((s) => s.name !== undefined && s.name.toLowerCase() === image.toLowerCase());
      current = { index: stages.length, from: ins, name: alias, parent };
      stages.push(current);
      const problem = parent || image.toLowerCase() === 'scratch' ? null : imageTagProblem(image);
      if (problem) {
        hits.push({
          rule: IAC_RULES.dockerImageTag,
          file,
          path: ['stages', current.index, 'FROM'],
          line: ins.line,
          actual: image,
          expected: 'an explicit version tag or a digest',
          message: `FROM ${image} ${problem === 'latest' ? 'uses the latest tag' : 'has no tag, which means latest'}.`,
          identity: image,
        });
      }
      continue;
    }
    if (!current) continue;
    const stage = current;
    if (ins.keyword === 'USER') stage.user = ins;
    if (ins.keyword === 'ENV' || ins.keyword === 'ARG') {
      for (const { key, value } of parseKeyValues(ins.keyword, ins.args)) {
        if (!isSecretName(key) || value === undefined || !isLiteralValue(value)) continue;
        hits.push({
          rule: ins.keyword === 'ENV' ? IAC_RULES.dockerSecretInEnv : IAC_RULES.dockerSecretInArg,
          file,
          path: ['stages', stage.index, ins.keyword, key],
          line: ins.line,
          actual: `literal value for ${key} (redacted)`,
          expected: 'a build secret (RUN --mount=type=secret) or a runtime secret',
          message: `${ins.keyword} ${key} bakes a secret into the image history.`,
        });
      }
    }
    if (ins.keyword === 'ADD') {
      const nth = addCounts.get(stage.index) ?? 0;
      addCounts.set(stage.index, nth + 1);
      const { sources, checksum } = addSources(ins.args);
      const remote = sources.filter((s) => /^https?:\/\//i.test(s));
      if (remote.length > 0 && !checksum) {
        hits.push({
          rule: IAC_RULES.dockerAddUrl,
          file,
          path: ['stages', stage.index, 'ADD', nth],
          line: ins.line,
          actual: remote.join(' '),
          expected: 'ADD --checksum=sha256:..., or a download verified in RUN',
          message: `ADD downloads ${remote.join(', ')} without verifying it.`,
          identity: remote.join(' '),
        });
      }
    }
  }

  const last = stages[stages.length - 1];
  if (last) {
    // A stage built FROM an earlier stage inherits its USER.
    let owner: TStage | undefined = last;
    while (owner && !owner.user) owner = owner.parent;
    const user = owner?.user;
    const value = user ? splitWords(user.args)[0] ?? '' : undefined;
    if (!user || ROOT_USER.test(value ?? '')) {
      hits.push({
        rule: IAC_RULES.dockerRoot,
        file,
        path: ['stages', (owner ?? last).index, user ? 'USER' : 'FROM'],
        line: user?.line ?? last.from.line,
        actual: user ? `USER ${value}` : 'no USER instruction in the final stage',
        expected: 'USER with a non-root user',
        message: user ? `The final image runs as ${value}.` : 'The final image sets no USER, so it runs as root.',
      });
    }
  }
  return hits.map(iacResult);
}
