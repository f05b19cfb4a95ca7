import { z } from 'zod';
import { ZSeverity } from '../common/primitives';
import { ZEvidence, ZSourceRegion } from '../findings/evidence';

/**
 * Palisade's own report format: what the built-in scanners post to the callback plane
 * (`Content-Type: application/json`, `X-Report-Format: palisade`), and what any scanner author
 * may emit when SARIF does not fit. Every field a finding needs is named; nothing is inferred.
 */
export const ZPalisadeResult = z
  .object({
    rule_id: z.string().min(1).max(256),
    rule_name: z.string().max(512).optional(),
    severity: ZSeverity,
    title: z.string().min(1).max(1024),
    message: z.string().max(8192).optional(),
    cwe: z.array(z.string().regex(/^CWE-\d+$/)).max(32).optional(),
    cve: z.array(z.string().max(64)).max(64).optional(),
    location: ZSourceRegion.optional(),
    evidence: z.array(ZEvidence).max(64).default([]),
    /** A fingerprint the scanner vouches for; otherwise one is computed from rule and location. */
    fingerprint: z.string().max(256).optional(),
  })
  .strict();
export type TPalisadeResult = z.infer<typeof ZPalisadeResult>;

export const ZPalisadeReport = z
  .object({
    format: z.literal('palisade'),
    version: z.literal(1),
    tool: z.object({ name: z.string().min(1).max(64), version: z.string().max(64).optional() }).strict(),
    results: z.array(ZPalisadeResult).max(1_000_000),
  })
  .strict();
export type TPalisadeReport = z.infer<typeof ZPalisadeReport>;
