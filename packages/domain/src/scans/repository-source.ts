import type { TTarget } from '@palisade/contracts';
import { AppError } from '../errors/app-error';

/**
 * Which repository URLs a deployment clones. A `file://` URL names a path on the worker's own
 * disk: in a shared deployment any tenant could point a scan at another tenant's checkout, or at
 * any repository the worker's host holds, and read it back as findings. So file URLs are off
 * unless the deployment turns them on (FILE_REPOSITORIES_ENABLED): `npm start` and the tests do,
 * the container config does not. Both sides apply the rule: the write plane refuses such a
 * target at creation (a 422), and the worker refuses to clone one (a setting changed since, a
 * scan request fanned out later).
 */
export interface TRepositorySourcePolicy {
  fileUrls: boolean;
}

/** Whether git would read this repository from the local filesystem. */
export function isFileRepositoryUrl(url: string): boolean {
  return /^\s*file:/i.test(url);
}

/** Whether the policy lets a scan clone this URL (only the scheme is judged here; checkout checks the rest). */
export function repositoryUrlAllowed(url: string, policy: TRepositorySourcePolicy): boolean {
  return policy.fileUrls || !isFileRepositoryUrl(url);
}

/**
 * Refuses, with one 422 naming every offending field, the repository targets the policy does not
 * allow. `field(i)` spells the request field of the i-th target (`body.target`, `body.targets[3]`).
 */
export function assertRepositoryTargetsAllowed(
  targets: readonly TTarget[],
  policy: TRepositorySourcePolicy,
  field: (index: number) => string,
): void {
  const refused = targets.flatMap((target, index) =>
    target.kind === 'repository' && !repositoryUrlAllowed(target.url, policy)
      ? [{ field: `${field(index)}.url`, issue: 'file:// repositories are not enabled on this deployment' }]
      : [],
  );
  if (refused.length === 0) return;
  throw new AppError('validation_failed', {
    message: 'This deployment does not clone file:// repositories: they would read the scanning host\'s own disk.',
    hint: 'Give the repository\'s https://, ssh:// or git:// URL; an operator can allow file:// URLs with FILE_REPOSITORIES_ENABLED=true.',
    errors: refused,
  });
}
