import { z } from 'zod';
import { defineRoute } from '../../route';
import { ZFindingDetail } from './finding.schemas';

export const ZFindingIdParams = z.object({ id: z.uuid() }).strict();

export const getFindingDetailContract = defineRoute({
  operationId: 'getFindingDetail',
  method: 'GET',
  path: '/api/v2/findings/:id/detail',
  plane: 'read',
  auth: 'tenant',
  permission: 'findings:read',
  summary: 'A finding with its typed evidence, status history and dispositions',
  tags: ['findings'],
  request: { params: ZFindingIdParams },
  responses: { 200: { description: 'The finding', schema: ZFindingDetail } },
});
