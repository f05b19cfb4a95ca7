import { z } from 'zod';
import { ENTITY_TYPES, FINDING_STATUSES, SEVERITIES, ZToolName } from '../../common/primitives';
import { defineRoute } from '../../route';
import { ZFinding } from './finding.schemas';

/** `a,b,c` of a vocabulary, each value once; an unknown value names itself in the 422. */
function commaList<const V extends readonly [string, ...string[]]>(values: V) {
  return z
    .string()
    .max(200)
    .transform((raw, ctx) => {
      const parts = [...new Set(raw.split(',').map((part) => part.trim()).filter((part) => part !== ''))];
      const unknown = parts.filter((part) => !(values as readonly string[]).includes(part));
      if (parts.length === 0 || unknown.length > 0) {
        ctx.addIssue({ code: 'custom', message: `must be a comma-separated list of ${values.join(', ')}${unknown.length ? ` (got ${unknown.join(', ')})` : ''}` });
        return z.NEVER;
      }
      return parts as V[number][];
    });
}

const ENTITY_PATTERN = new RegExp(`^(${ENTITY_TYPES.join('|')}):(.+)$`, 's');

export const ZListFindingsQuery = z
  .object({
    scan_id: z.uuid().optional(),
    severity: commaList(SEVERITIES).optional(),
    status: commaList(FINDING_STATUSES).optional(),
    /** `type:id`, e.g. `repository:https://github.com/acme/api`. */
    entity: z
      .string()
      .max(600)
      .transform((raw, ctx) => {
        const match = ENTITY_PATTERN.exec(raw);
        if (!match || match[2].length > 512) {
          ctx.addIssue({ code: 'custom', message: `must be "type:id" with type one of ${ENTITY_TYPES.join(', ')}` });
          return z.NEVER;
        }
        return { type: match[1] as (typeof ENTITY_TYPES)[number], id: match[2] };
      })
      .optional(),
    tool: ZToolName.optional(),
    limit: z.coerce.number().int().min(1).max(500).default(50),
    cursor: z.string().min(1).max(512).optional(),
  })
  .strict();
export type TListFindingsQuery = z.infer<typeof ZListFindingsQuery>;

export const ZListFindingsResponse = z
  .object({ items: z.array(ZFinding), next_cursor: z.string().optional() })
  .strict();
export type TListFindingsResponse = z.infer<typeof ZListFindingsResponse>;

export const listFindingsContract = defineRoute({
  operationId: 'listFindings',
  method: 'GET',
  path: '/api/v2/findings',
  plane: 'read',
  auth: 'tenant',
  permission: 'findings:read',
  summary: 'List findings, newest first, with keyset cursor pagination',
  tags: ['findings'],
  request: { query: ZListFindingsQuery },
  responses: { 200: { description: 'A page of findings; next_cursor only when more rows exist', schema: ZListFindingsResponse } },
});
