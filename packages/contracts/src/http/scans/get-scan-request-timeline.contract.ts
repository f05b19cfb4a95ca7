import { z } from 'zod';
import { ZScanStatus } from '../../common/primitives';
import { defineRoute } from '../../route';
import { ZTarget } from './scan.schemas';

export const SCAN_REQUEST_EVENT_TYPES = [
  'created',
  'fanout_started',
  'scan_created',
  'fanout_completed',
  'scan_status_changed',
  'completed',
] as const;

export const ZScanRequestEvent = z
  .object({
    at: z.string(),
    type: z.enum(SCAN_REQUEST_EVENT_TYPES),
    scan_id: z.uuid().optional(),
    target: ZTarget.optional(),
    from: z.string().max(32).optional(),
    to: z.string().max(32).optional(),
  })
  .strict();
export type TScanRequestEvent = z.infer<typeof ZScanRequestEvent>;

export const ZScanRequestTimeline = z
  .object({
    scan_request_id: z.uuid(),
    status: ZScanStatus,
    progress: z
      .object({
        /** Targets in the request. */
        total: z.number().int(),
        /** Scans created so far. */
        created: z.number().int(),
        queued: z.number().int(),
        running: z.number().int(),
        /** Scans that ended, whatever the outcome (failed ones included). */
        finished: z.number().int(),
        failed: z.number().int(),
      })
      .strict(),
    /** Every transition in the order it happened. */
    events: z.array(ZScanRequestEvent),
  })
  .strict();
export type TScanRequestTimeline = z.infer<typeof ZScanRequestTimeline>;

export const ZScanRequestIdParams = z.object({ id: z.uuid() }).strict();

export const getScanRequestTimelineContract = defineRoute({
  operationId: 'getScanRequestTimeline',
  method: 'GET',
  path: '/api/v2/scan-requests/:id/timeline',
  plane: 'read',
  auth: 'tenant',
  permission: 'scans:read',
  summary: 'Fan-out progress and every state transition of a multi-target scan request',
  tags: ['scans'],
  request: { params: ZScanRequestIdParams },
  responses: { 200: { description: 'The timeline', schema: ZScanRequestTimeline } },
});
