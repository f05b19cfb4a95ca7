import { z } from 'zod';
import { ZScanStatus, ZToolName } from '../../common/primitives';
import { defineRoute } from '../../route';
import { MAX_SCAN_TARGETS, MAX_SCAN_TOOLS, SCAN_DEADLINE_SECONDS, ZScan, ZTarget } from './scan.schemas';

/**
 * `{target}` creates one scan now (201); `{targets}` (even of one) creates a scan request whose
 * scans the worker fans out (202). Without `tools` the automatic plan chooses them.
 */
export const ZCreateScanBody = z
  .object({
    target: ZTarget.optional(),
    targets: z.array(ZTarget).min(1).max(MAX_SCAN_TARGETS).optional(),
    tools: z
      .array(ZToolName)
      .min(1)
      .max(MAX_SCAN_TOOLS)
      .refine((tools) => new Set(tools).size === tools.length, 'each tool may be named once')
      .optional(),
    deadline_seconds: z.number().int().min(SCAN_DEADLINE_SECONDS.min).max(SCAN_DEADLINE_SECONDS.max).optional(),
  })
  .strict()
  .superRefine((body, ctx) => {
    if ((body.target === undefined) === (body.targets === undefined)) {
      ctx.addIssue({ code: 'custom', path: body.target ? ['targets'] : ['target'], message: 'send exactly one of target or targets' });
    }
  });
export type TCreateScanBody = z.infer<typeof ZCreateScanBody>;

export const ZScanRequestAccepted = z
  .object({ scan_request_id: z.uuid(), status: ZScanStatus, targets_total: z.number().int().min(1) })
  .strict();
export type TScanRequestAccepted = z.infer<typeof ZScanRequestAccepted>;

export const createScanContract = defineRoute({
  operationId: 'createScan',
  method: 'POST',
  path: '/api/v2/scans',
  plane: 'write',
  auth: 'tenant',
  permission: 'scans:create',
  summary: 'Create a scan of one target, or a scan request fanning out to several',
  tags: ['scans'],
  request: { body: ZCreateScanBody },
  responses: {
    201: { description: 'The scan; each external tool carries its callback credential (shown only here)', schema: ZScan },
    202: { description: 'The scan request; its scans are created by the worker (see its timeline)', schema: ZScanRequestAccepted },
  },
});
