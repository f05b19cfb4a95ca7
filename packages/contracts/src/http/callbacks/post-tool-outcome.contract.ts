import { z } from 'zod';
import { ZScanStatus, ZToolName, ZToolStatus } from '../../common/primitives';
import { defineRoute } from '../../route';
import { ZToolCallbackParams } from './post-tool-report.contract';

export const ZToolOutcomeBody = z
  .object({
    status: z.enum(['failed', 'skipped']),
    error: z
      .object({
        error_code: z.string().min(1).max(64).regex(/^[a-z0-9_.-]+$/, 'lower-case letters, digits, "_", "." or "-"'),
        message: z.string().max(4096),
      })
      .strict()
      .optional(),
  })
  .strict();
export type TToolOutcomeBody = z.infer<typeof ZToolOutcomeBody>;

export const ZToolOutcomeResult = z
  .object({ scan_id: z.uuid(), tool: ZToolName, tool_status: ZToolStatus, scan_status: ZScanStatus })
  .strict();
export type TToolOutcomeResult = z.infer<typeof ZToolOutcomeResult>;

/** A tool that ends without a report (it crashed, or had nothing to scan) says so here. */
export const postToolOutcomeContract = defineRoute({
  operationId: 'postToolOutcome',
  method: 'POST',
  path: '/api/v2/callbacks/scans/:scan_id/tools/:tool/outcome',
  plane: 'callback',
  auth: 'callback',
  summary: 'Report that a tool failed or was skipped without producing a report',
  tags: ['callbacks'],
  request: { params: ZToolCallbackParams, body: ZToolOutcomeBody },
  responses: { 200: { description: 'Outcome recorded', schema: ZToolOutcomeResult } },
});
