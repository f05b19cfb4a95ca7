import { mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import type { TTarget } from '@palisade/contracts';
import type { TRepositorySourcePolicy } from '@palisade/domain';
import { checkoutRepository } from '@palisade/scanners';

/** Clones the repository target into a fresh directory, runs `work` on it, and always removes it. */
export async function withCheckout<T>(
  { workDir, repositorySources }: { workDir: string; repositorySources: TRepositorySourcePolicy },
  target: Extract<TTarget, { kind: 'repository' }>,
  deadlineAt: Date | null,
  work: (dir: string, commit: string) => Promise<T>,
): Promise<T> {
  const root = await mkdtemp(path.join(workDir, 'palisade-checkout-'));
  try {
    const timeoutMs = deadlineAt ? Math.max(1000, deadlineAt.getTime() - Date.now()) : undefined;
    const { dir, commit } = await checkoutRepository({
      url: target.url,
      ref: target.ref,
      into: path.join(root, 'repo'),
      timeoutMs,
      allowFileUrls: repositorySources.fileUrls,
    });
    return await work(dir, commit);
  } finally {
    await rm(root, { recursive: true, force: true }).catch(() => undefined);
  }
}
