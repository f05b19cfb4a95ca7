import { z } from 'zod';

/** Where in a file a result points; lines and columns are 1-based as in SARIF. */
export const ZSourceRegion = z
  .object({
    path: z.string().min(1).max(4096),
    start_line: z.number().int().min(1).optional(),
    end_line: z.number().int().min(1).optional(),
    start_column: z.number().int().min(1).optional(),
    end_column: z.number().int().min(1).optional(),
  })
  .strict();
export type TSourceRegion = z.infer<typeof ZSourceRegion>;

export const ZCodeSpanEvidence = z
  .object({
    kind: z.literal('code_span'),
    region: ZSourceRegion,
    /** The source text, with any secret already redacted by whoever produced it. */
    snippet: z.string().max(8192).optional(),
  })
  .strict();

export const ZDataflowStep = z
  .object({ region: ZSourceRegion, message: z.string().max(2048).optional() })
  .strict();

export const ZDataflowPathEvidence = z
  .object({ kind: z.literal('dataflow_path'), steps: z.array(ZDataflowStep).min(1).max(1000) })
  .strict();

export const ZDependencyPathEvidence = z
  .object({
    kind: z.literal('dependency_path'),
    /** From the root project down to the vulnerable package, as package URLs where known. */
    path: z.array(z.string().min(1).max(1024)).min(1).max(256),
    package: z
      .object({
        name: z.string().max(512),
        version: z.string().max(256).optional(),
        purl: z.string().max(1024).optional(),
        ecosystem: z.string().max(64).optional(),
      })
      .strict(),
    fixed_versions: z.array(z.string().max(256)).max(64).optional(),
  })
  .strict();

export const ZConfigPathEvidence = z
  .object({
    kind: z.literal('config_path'),
    file: z.string().min(1).max(4096),
    /** A JSONPath-like pointer into the document, e.g. spec.template.spec.containers[0].securityContext.privileged */
    path: z.string().max(2048),
    line: z.number().int().min(1).optional(),
    actual: z.string().max(2048).optional(),
    expected: z.string().max(2048).optional(),
  })
  .strict();

export const ZRequestTraceEvidence = z
  .object({
    kind: z.literal('request_trace'),
    request: z.object({ method: z.string().max(16), url: z.string().max(8192), headers: z.record(z.string(), z.string().max(8192)).optional(), body: z.string().max(65536).optional() }).strict(),
    response: z.object({ status: z.number().int(), headers: z.record(z.string(), z.string().max(8192)).optional(), body: z.string().max(65536).optional() }).strict().optional(),
  })
  .strict();

export const ZExploitProofEvidence = z
  .object({ kind: z.literal('exploit_proof'), description: z.string().max(8192), payload: z.string().max(65536).optional() })
  .strict();

export const ZArtifactHashEvidence = z
  .object({
    kind: z.literal('artifact_hash'),
    algorithm: z.string().max(32),
    digest: z.string().max(256),
    artifact: z.string().max(4096).optional(),
  })
  .strict();

export const ZEvidence = z.discriminatedUnion('kind', [
  ZCodeSpanEvidence,
  ZDataflowPathEvidence,
  ZDependencyPathEvidence,
  ZConfigPathEvidence,
  ZRequestTraceEvidence,
  ZExploitProofEvidence,
  ZArtifactHashEvidence,
]);
export type TEvidence = z.infer<typeof ZEvidence>;
export const EVIDENCE_KINDS = ['code_span', 'dataflow_path', 'dependency_path', 'config_path', 'request_trace', 'exploit_proof', 'artifact_hash'] as const;
export type TEvidenceKind = (typeof EVIDENCE_KINDS)[number];
