import { z } from 'zod';
import { ZEvidence, ZSeverity } from '@palisade/contracts';

/**
 * What every report parser yields for one result, whatever the tool: the finding model's
 * fields before an entity and a fingerprint are attached (callback-api adds both). Limits follow
 * the contracts (evidence) and the API's string caps; parsers truncate rather than reject, since
 * one overlong message must not cost the whole report.
 */
export const ZFindingPackage = z
  .object({
    name: z.string().max(512),
    version: z.string().max(256).optional(),
    purl: z.string().max(1024).optional(),
    /** The package ecosystem as the tool names it, lower-cased (npm, maven, pypi, deb, apk...). */
    ecosystem: z.string().max(64).optional(),
  })
  .strict();
export type TFindingPackage = z.infer<typeof ZFindingPackage>;

export const ZFindingLocation = z
  .object({
    /** Forward slashes, no leading "./"; relative to the scanned root where the tool says so. */
    path: z.string().min(1).max(4096).optional(),
    start_line: z.number().int().min(1).optional(),
    end_line: z.number().int().min(1).optional(),
    start_column: z.number().int().min(1).optional(),
    end_column: z.number().int().min(1).optional(),
    package: ZFindingPackage.optional(),
    /** A logical place: a function's qualified name, a Kubernetes resource (namespace/Kind/name). */
    logical: z.string().max(1024).optional(),
  })
  .strict();
export type TFindingLocation = z.infer<typeof ZFindingLocation>;

/**
 * A suppression the report itself carries. `in_source` / `external`: SARIF suppressions
 * (nosec comments, baseline files); `vex`: a CycloneDX analysis saying not affected, false
 * positive or resolved; `tool`: the scanner's own ignore mechanism (Trivy EXCEPTION, ...).
 * The finding is stored dismissed with this as its reason, never dropped (API.md).
 */
export const SUPPRESSION_KINDS = ['in_source', 'external', 'vex', 'tool'] as const;
export const ZFindingSuppression = z
  .object({
    kind: z.enum(SUPPRESSION_KINDS),
    /** SARIF suppression status or CycloneDX analysis state, as the report spells it. */
    status: z.string().max(64).optional(),
    justification: z.string().max(4096).optional(),
  })
  .strict();
export type TFindingSuppression = z.infer<typeof ZFindingSuppression>;

export const ZNormalizedFinding = z
  .object({
    /** The Palisade tool name (the callback's tool, or the report's tool name made a ZToolName). */
    tool: z.string().min(1).max(64),
    /** The scanner as the report names it, when it differs from `tool` (SARIF driver, Trivy...). */
    source_tool: z.object({ name: z.string().max(256), version: z.string().max(64).optional() }).strict().optional(),
    rule: z
      .object({
        id: z.string().min(1).max(256),
        name: z.string().max(512).optional(),
        /** 'CWE-79' form, deduplicated. */
        cwe: z.array(z.string().regex(/^CWE-\d+$/)).max(32),
        /** 'CVE-2021-44228' form, deduplicated. */
        cve: z.array(z.string().max(64)).max(64),
        /**
         * Other ids the report gives for the same vulnerability (GHSA, PYSEC, OSV, MAL, vendor
         * ids), besides `id` and the CVEs; deduplicated. Present only when there are some.
         */
        aliases: z.array(z.string().min(1).max(128)).max(64).optional(),
      })
      .strict(),
    severity: ZSeverity,
    title: z.string().min(1).max(1024),
    message: z.string().max(8192).optional(),
    location: ZFindingLocation,
    evidence: z.array(ZEvidence).max(64),
    /** An identity the report vouches for (SARIF fingerprints, a tool's stable id). */
    fingerprint_hint: z.string().min(1).max(2048).optional(),
    suppression: ZFindingSuppression.optional(),
    /**
     * The n-th (0-based) result of this report with the same rule at the same position, for
     * results without a fingerprint_hint; it keeps genuinely repeated results apart (API.md).
     */
    occurrence: z.number().int().min(0).optional(),
  })
  .strict();
export type TNormalizedFinding = z.infer<typeof ZNormalizedFinding>;
