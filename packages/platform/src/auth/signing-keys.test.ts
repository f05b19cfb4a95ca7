import { randomBytes } from 'node:crypto';
import { KEY_STATE_TTL_MS, makeSigningKeyService, type TSigningKeyRecord, type TSigningKeyRepo } from './signing-keys';

/** An in-memory key table that counts reads, with a clock the test moves. */
function setup() {
  const rows: TSigningKeyRecord[] = [];
  const reads = { byKid: 0, activeKid: 0, failing: false };
  const repo: TSigningKeyRepo = {
    insertIfNoneActive: async (key) => {
      if (rows.some((r) => r.status === 'active')) return false;
      rows.push({ ...key, status: 'active', retireAfter: null, createdAt: new Date() });
      return true;
    },
    activeKid: async () => {
      reads.activeKid += 1;
      return rows.filter((r) => r.status === 'active').at(-1)?.kid ?? null;
    },
    byKid: async (kid) => {
      reads.byKid += 1;
      if (reads.failing) throw new Error('connection refused');
      return rows.find((r) => r.kid === kid) ?? null;
    },
    listPublishable: async () => rows.filter((r) => r.status !== 'retired'),
  };
  let clock = 1_700_000_000_000;
  const service = makeSigningKeyService({ keys: repo, kek: randomBytes(32), now: () => clock });
  /** What the admin plane's rotation does to the table. */
  const rotate = (retireAfterMs: number) => {
    for (const row of rows.filter((r) => r.status === 'active'))
      Object.assign(row, { status: 'retiring', retireAfter: new Date(clock + retireAfterMs) });
    rows.push({ ...service.generate(), status: 'active', retireAfter: null, createdAt: new Date(clock) });
    return rows.at(-1)!.kid;
  };
  const row = (kid: string) => rows.find((r) => r.kid === kid)!;
  return { service, rows, reads, rotate, row, advance: (ms: number) => void (clock += ms), now: () => clock };
}

describe('signing keys', () => {
  it('verifies the active kid from memory between refreshes, not with a read per request', async () => {
    const { service, rows, reads, advance } = setup();
    await service.ensureActiveKey();
    const kid = rows[0].kid;
    for (let i = 0; i < 50; i++) await expect(service.verificationKey(kid)).resolves.not.toBeNull();
    expect(reads.byKid).toBe(1);
    advance(KEY_STATE_TTL_MS);
    await Promise.all([service.verificationKey(kid), service.verificationKey(kid), service.verificationKey(kid)]);
    expect(reads.byKid).toBe(2);
  });

  it('accepts a rotated-out kid until its retire_after and refuses it from then on', async () => {
    const { service, rows, rotate, advance } = setup();
    await service.ensureActiveKey();
    const oldKid = rows[0].kid;
    await service.verificationKey(oldKid);
    rotate(60_000);
    advance(KEY_STATE_TTL_MS);
    await expect(service.verificationKey(oldKid)).resolves.not.toBeNull();
    advance(60_000 - KEY_STATE_TTL_MS);
    await expect(service.verificationKey(oldKid)).resolves.toBeNull();
  });

  it('notices a retire_after moved into the past, or a retirement, within the refresh interval', async () => {
    const { service, rows, rotate, row, advance, now } = setup();
    await service.ensureActiveKey();
    const first = rows[0].kid;
    const second = rotate(600_000);
    await service.verificationKey(first);
    await service.verificationKey(second);

    row(first).retireAfter = new Date(now() - 1);
    rotate(600_000);
    row(second).status = 'retired';
    advance(KEY_STATE_TTL_MS);
    await expect(service.verificationKey(first)).resolves.toBeNull();
    await expect(service.verificationKey(second)).resolves.toBeNull();
  });

  it('signs with the new kid as soon as a rotation commits, decrypting each private key once', async () => {
    const { service, rows, reads, rotate } = setup();
    await service.ensureActiveKey();
    await expect(service.signingKey()).resolves.toMatchObject({ kid: rows[0].kid });
    await service.signingKey();
    expect(reads.byKid).toBe(1);
    const newKid = rotate(60_000);
    await expect(service.signingKey()).resolves.toMatchObject({ kid: newKid });
  });

  it('leaves out of the JWKS a key whose retire_after has passed', async () => {
    const { service, rows, rotate, advance } = setup();
    await service.ensureActiveKey();
    const oldKid = rows[0].kid;
    const newKid = rotate(60_000);
    expect((await service.jwks()).keys.map((key) => key.kid).sort()).toEqual([oldKid, newKid].sort());
    advance(60_000);
    expect((await service.jwks()).keys.map((key) => key.kid)).toEqual([newKid]);
  });

  it('creates a first key only when none is active', async () => {
    const { service, rows } = setup();
    await service.ensureActiveKey();
    await service.ensureActiveKey();
    expect(rows).toHaveLength(1);
  });

  it('keeps verifying with what it knew, retire_after included, while the database cannot be read', async () => {
    const { service, rows, reads, rotate, advance } = setup();
    await service.ensureActiveKey();
    const oldKid = rows[0].kid;
    const newKid = rotate(60_000);
    await service.verificationKey(oldKid);
    await service.verificationKey(newKid);
    reads.failing = true;
    advance(KEY_STATE_TTL_MS);
    await expect(service.verificationKey(newKid)).resolves.not.toBeNull();
    advance(60_000);
    await expect(service.verificationKey(oldKid)).resolves.toBeNull();
    await expect(service.verificationKey('never-seen')).rejects.toThrow('connection refused');
  });
});
