import { z } from 'zod';
import { defineRoute } from '../../route';

export const MEMBER_ROLES = ['owner', 'admin', 'security_admin', 'member', 'viewer', 'auditor'] as const;
export const ZMemberRole = z.enum(MEMBER_ROLES);

export const ZMember = z
  .object({
    user_id: z.uuid(),
    email: z.string(),
    display_name: z.string(),
    role: ZMemberRole,
    joined_at: z.string(),
  })
  .strict();

const ZUserIdParams = z.object({ user_id: z.uuid() }).strict();

export const listMembersContract = defineRoute({
  operationId: 'listMembers',
  method: 'GET',
  path: '/api/v2/organization/members',
  plane: 'read',
  auth: 'tenant',
  permission: 'org:read',
  summary: 'Members of the organization and their roles',
  tags: ['organizations'],
  request: {},
  responses: { 200: { description: 'Members', schema: z.object({ items: z.array(ZMember) }).strict() } },
});

export const addMemberContract = defineRoute({
  operationId: 'addMember',
  method: 'POST',
  path: '/api/v2/organization/members',
  plane: 'write',
  auth: 'tenant',
  permission: 'members:manage',
  summary: 'Add an existing user to the organization with a role',
  tags: ['organizations'],
  request: { body: z.object({ email: z.email().max(320), role: ZMemberRole }).strict() },
  responses: { 201: { description: 'Added', schema: ZMember } },
});

export const changeMemberRoleContract = defineRoute({
  operationId: 'changeMemberRole',
  method: 'PUT',
  path: '/api/v2/organization/members/:user_id',
  plane: 'write',
  auth: 'tenant',
  permission: 'members:manage',
  summary: 'Change a member’s role (audited); the last owner cannot be demoted',
  tags: ['organizations'],
  request: { params: ZUserIdParams, body: z.object({ role: ZMemberRole }).strict() },
  responses: { 200: { description: 'Changed', schema: ZMember } },
});

export const removeMemberContract = defineRoute({
  operationId: 'removeMember',
  method: 'DELETE',
  path: '/api/v2/organization/members/:user_id',
  plane: 'write',
  auth: 'tenant',
  permission: 'members:manage',
  summary: 'Remove a member (audited); the last owner cannot be removed',
  tags: ['organizations'],
  request: { params: ZUserIdParams },
  responses: { 204: { description: 'Removed' } },
});
