import { readFileSync } from 'node:fs';
import path from 'node:path';
import { checkDockerfile } from './dockerfile-checks';
import { parseDockerfile, parseKeyValues } from './dockerfile-parser';

const evidenceOf = (r: { evidence: unknown[] }) => r.evidence[0] as { path: string; line?: number; actual?: string };
const summary = (text: string) => checkDockerfile('Dockerfile', text).map((r) => [r.rule_id, evidenceOf(r).path, evidenceOf(r).line]);

describe('parseDockerfile', () => {
  it('joins continuations, drops comment lines inside them, and skips heredoc bodies', () => {
    const text = ['FROM alpine:3.20', 'RUN apk add \\', '# a comment', '    curl', 'RUN <<EOF', 'USER root', 'EOF', 'user app'].join('\n');
    expect(parseDockerfile(text)).toEqual([
      { keyword: 'FROM', args: 'alpine:3.20', line: 1 },
      { keyword: 'RUN', args: 'apk add      curl', line: 2 },
      { keyword: 'RUN', args: '<<EOF', line: 5 },
      { keyword: 'USER', args: 'app', line: 8 },
    ]);
  });

  it('honours the escape directive', () => {
    expect(parseDockerfile('# escape=`\nFROM x:1\nRUN a `\n  b').map((i) => i.args)).toEqual(['x:1', 'a    b']);
  });

  it('reads ENV in both forms and ARG with and without defaults', () => {
    expect(parseKeyValues('ENV', 'A=1 B="two words"')).toEqual([{ key: 'A', value: '1' }, { key: 'B', value: 'two words' }]);
    expect(parseKeyValues('ENV', 'LEGACY some value')).toEqual([{ key: 'LEGACY', value: 'some value' }]);
    expect(parseKeyValues('ARG', 'TOKEN')).toEqual([{ key: 'TOKEN', value: undefined }]);
  });
});

describe('checkDockerfile', () => {
  it('flags the trivy corpus Dockerfile for running as root, pointing at its FROM', () => {
    const text = readFileSync(path.join(__dirname, '../../test/fixtures/iac/trivy_dockerfile/Dockerfile'), 'utf8');
    expect(summary(text)).toEqual([['iac.dockerfile.runs-as-root', 'stages[0].FROM', 1]]);
  });

  it('flags latest and untagged base images but not stages, scratch, digests or variables', () => {
    const text = [
      'ARG BASE=node:20',
      'FROM golang AS build',
      'FROM --platform=$BUILDPLATFORM node:latest AS web',
      'FROM ${BASE}',
      'FROM build AS again',
      'FROM scratch',
      `FROM alpine@sha256:${'b'.repeat(64)}`,
      'USER 10001',
    ].join('\n');
    expect(summary(text)).toEqual([
      ['iac.dockerfile.image-tag-latest', 'stages[0].FROM', 2],
      ['iac.dockerfile.image-tag-latest', 'stages[1].FROM', 3],
    ]);
  });

  it('flags USER root in the final stage and follows the final stage back to the stage it is built from', () => {
    expect(summary('FROM debian:12\nUSER app\nUSER root:root')).toEqual([['iac.dockerfile.runs-as-root', 'stages[0].USER', 3]]);
    expect(summary('FROM debian:12 AS base\nUSER app\nFROM base\nRUN true')).toEqual([]);
    expect(summary('FROM debian:12\nUSER app\nFROM debian:12\nRUN true')).toEqual([['iac.dockerfile.runs-as-root', 'stages[1].FROM', 3]]);
  });

  it('flags secrets set with ENV or an ARG default, without copying the value', () => {
    const text = 'FROM debian:12\nENV DB_PASSWORD=s3cr3tV4lue APP_MODE=prod\nARG NPM_TOKEN=abcd1234efgh\nARG GITHUB_TOKEN\nENV API_KEY=$API_KEY\nUSER app';
    const results = checkDockerfile('docker/Dockerfile.prod', text);
    expect(results.map((r) => [r.rule_id, evidenceOf(r).path, evidenceOf(r).line])).toEqual([
      ['iac.dockerfile.secret-in-env', 'stages[0].ENV.DB_PASSWORD', 2],
      ['iac.dockerfile.secret-in-arg', 'stages[0].ARG.NPM_TOKEN', 3],
    ]);
    expect(results[0].cwe).toEqual(['CWE-798']);
    expect(JSON.stringify(results)).not.toMatch(/s3cr3tV4lue|abcd1234efgh/);
  });

  it('flags ADD from a URL unless it pins a checksum', () => {
    const text = [
      'FROM debian:12',
      'ADD https://example.com/tool.tar.gz /opt/',
      'ADD --checksum=sha256:abc https://example.com/ok.tar.gz /opt/',
      'ADD ["http://example.com/a", "/b"]',
      'ADD local.tar.gz /opt/',
      'USER app',
    ].join('\n');
    expect(summary(text)).toEqual([
      ['iac.dockerfile.add-from-url', 'stages[0].ADD[0]', 2],
      ['iac.dockerfile.add-from-url', 'stages[0].ADD[2]', 4],
    ]);
  });
});
