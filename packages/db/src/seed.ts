// Demo data for a fresh installation: organization "Demo" (slug demo) with an owner,
// demo@palisade.local. Idempotent: a second run changes nothing and prints no password, unless
// --reset-password is given. Prints {organization_id, email, password?} as JSON on stdout.
//
//   npm run -w @palisade/db seed [-- --reset-password]      (SEED_PASSWORD to choose the password)
import { randomBytes } from 'node:crypto';
import { hashPassword } from '@palisade/domain/passwords';
import { createDb } from './client';
import type { PrismaClient } from './generated/prisma/client';
import { makeAuditLogRepo } from './repos/audit-log.repo';
import { makeMembershipRepo } from './repos/membership.repo';
import { makeOrganizationRepo } from './repos/organization.repo';
import { makeUserRepo } from './repos/user.repo';

export const DEMO_ORG = { slug: 'demo', name: 'Demo' } as const;
export const DEMO_EMAIL = 'demo@palisade.local';
const SEED_ACTOR = { actorType: 'system', actorId: 'seed' } as const;

export type TSeedOptions = { password?: string; resetPassword?: boolean };
export type TSeedResult = { organization_id: string; email: string; password?: string };

function isUniqueViolation(err: unknown): boolean {
  return (err as { code?: string } | null)?.code === 'P2002';
}

// Create-or-read that survives two seeds racing: the loser of the insert reads the winner's row.
async function findOrCreate<T>(find: () => Promise<T | null>, create: () => Promise<T>): Promise<[T, boolean]> {
  const existing = await find();
  if (existing) return [existing, false];
  try {
    return [await create(), true];
  } catch (err) {
    const raced = isUniqueViolation(err) ? await find() : null;
    if (!raced) throw err;
    return [raced, false];
  }
}

export async function seedDemo(db: PrismaClient, options: TSeedOptions = {}): Promise<TSeedResult> {
  const organizations = makeOrganizationRepo(db);
  const users = makeUserRepo(db);
  const memberships = makeMembershipRepo(db);
  const audit = makeAuditLogRepo(db);
  const password = options.password || randomBytes(15).toString('base64url');

  const [org, orgCreated] = await findOrCreate(() => organizations.bySlug(DEMO_ORG.slug), () => organizations.create(DEMO_ORG));
  if (orgCreated) {
    await audit.append(org.id, { ...SEED_ACTOR, action: 'organization.created', targetType: 'organization', targetId: org.id });
  }

  const [user, userCreated] = await findOrCreate(
    () => users.byEmail(DEMO_EMAIL),
    async () => users.create({ email: DEMO_EMAIL, displayName: 'Demo Owner', passwordHash: await hashPassword(password) }),
  );
  const reset = !userCreated && options.resetPassword === true;
  if (reset) await users.setPasswordHash(user.id, await hashPassword(password));

  if ((await memberships.role(org.id, user.id)) !== 'owner') {
    await memberships.add(org.id, user.id, 'owner');
    await audit.append(org.id, {
      ...SEED_ACTOR,
      action: 'membership.added',
      targetType: 'user',
      targetId: user.id,
      data: { role: 'owner' },
    });
  }
  if (reset) {
    await audit.append(null, { ...SEED_ACTOR, action: 'user.password_reset', targetType: 'user', targetId: user.id });
  }

  return { organization_id: org.id, email: user.email, ...(userCreated || reset ? { password } : {}) };
}

async function main(): Promise<void> {
  const url = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/palisade';
  const db = createDb({ url, poolSize: 2, applicationName: 'palisade-seed' });
  try {
    const result = await seedDemo(db.primary, {
      password: process.env.SEED_PASSWORD,
      resetPassword: process.argv.slice(2).includes('--reset-password'),
    });
    process.stdout.write(`${JSON.stringify(result)}\n`);
  } finally {
    await db.close();
  }
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`seed failed: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
