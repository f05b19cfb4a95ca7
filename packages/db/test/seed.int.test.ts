import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { verifyPassword } from '@palisade/domain/passwords';
import { useTestDatabase } from '@palisade/testing/test-database';
import { verifyAuditChain } from '../src/repos/audit-log.repo';
import { makeMembershipRepo } from '../src/repos/membership.repo';
import { makeUserRepo } from '../src/repos/user.repo';
import { DEMO_EMAIL, seedDemo } from '../src/seed';

const run = promisify(execFile);

describe('seed', () => {
  const t = useTestDatabase();

  it('creates the demo organization and owner once, and prints the password only then', async () => {
    const first = await seedDemo(t.prisma, {});
    expect(first).toEqual({ organization_id: expect.any(String), email: DEMO_EMAIL, password: expect.any(String) });
    const second = await seedDemo(t.prisma, {});
    expect(second).toEqual({ organization_id: first.organization_id, email: DEMO_EMAIL });

    const user = await makeUserRepo(t.prisma).byEmail(DEMO_EMAIL);
    await expect(verifyPassword(first.password!, user!.passwordHash!)).resolves.toBe(true);
    await expect(makeMembershipRepo(t.prisma).role(first.organization_id, user!.id)).resolves.toBe('owner');
    expect(await t.prisma.organization.count({ where: { slug: 'demo' } })).toBe(1);
    await expect(verifyAuditChain(t.prisma, first.organization_id)).resolves.toMatchObject({ ok: true, rows: 2 });
  });

  it('resets the password only when asked, to SEED_PASSWORD when given', async () => {
    const reset = await seedDemo(t.prisma, { resetPassword: true, password: 'a-chosen-password' });
    expect(reset.password).toBe('a-chosen-password');
    const user = await makeUserRepo(t.prisma).byEmail(DEMO_EMAIL);
    await expect(verifyPassword('a-chosen-password', user!.passwordHash!)).resolves.toBe(true);
  });

  it('runs as `npm run seed` and prints JSON', async () => {
    const packageDir = path.resolve(__dirname, '..');
    const env = { ...process.env, DATABASE_URL: t.url, SEED_PASSWORD: '' };
    const { stdout } = await run('npm', ['run', '--silent', 'seed'], { cwd: packageDir, env });
    const printed = JSON.parse(stdout.trim());
    expect(printed).toEqual({ organization_id: expect.any(String), email: DEMO_EMAIL });
    const { stdout: resetOut } = await run('npm', ['run', '--silent', 'seed', '--', '--reset-password'], { cwd: packageDir, env });
    expect(JSON.parse(resetOut.trim())).toEqual({ organization_id: printed.organization_id, email: DEMO_EMAIL, password: expect.any(String) });
  }, 60_000);
});
