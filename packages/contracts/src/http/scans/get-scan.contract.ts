import { defineRoute } from '../../route';
import { ZScan, ZScanIdParams } from './scan.schemas';

export const getScanContract = defineRoute({
  operationId: 'getScan',
  method: 'GET',
  path: '/api/v2/scans/:scan_id',
  plane: 'read',
  auth: 'tenant',
  permission: 'scans:read',
  summary: 'A scan: status, per-tool outcomes with timestamps, counts and errors, deadlines',
  tags: ['scans'],
  request: { params: ZScanIdParams },
  responses: { 200: { description: 'The scan (callback credentials are never shown again)', schema: ZScan } },
});
