import type { TTarget } from '@palisade/contracts';
import { AppError } from '../errors/app-error';
import { planAutomatic } from './automatic-plan';
import { isBuiltinTool } from './scan-tools';

export interface TResolvedPlan {
  plan: 'automatic' | 'explicit';
  /** The tools to create now; empty when `deferred`. */
  tools: string[];
  /** Why these tools; null while deferred. */
  reason: string | null;
  /**
   * An automatic plan for a repository is chosen from the files of its checkout, which only the
   * worker has: the scan is created without tools and the `scan-plan` job clones, lists the files
   * and creates them. The API never guesses at files it has not seen.
   */
  deferred: boolean;
}

export function resolveScanPlan(target: TTarget, tools: readonly string[] | undefined): TResolvedPlan {
  if (tools && tools.length > 0) {
    return { plan: 'explicit', tools: [...tools], reason: 'tools named in the request', deferred: false };
  }
  if (target.kind === 'repository') return { plan: 'automatic', tools: [], reason: null, deferred: true };
  const chosen = planAutomatic(target);
  if (chosen.tools.length === 0) {
    // A scan with nothing to run would only wait for its deadline to fail: refuse it now.
    throw new AppError('validation_failed', {
      message: `No built-in tool applies to ${article(target.kind)} ${target.kind} target; name the tools to run.`,
      hint: planReasonText(chosen.reason),
      errors: [{ field: 'body.tools', issue: `required for ${article(target.kind)} ${target.kind} target` }],
    });
  }
  return { plan: 'automatic', tools: [...chosen.tools], reason: planReasonText(chosen.reason), deferred: false };
}

function article(word: string): 'a' | 'an' {
  return /^[aeiou]/i.test(word) ? 'an' : 'a';
}

/** Tool rows start `queued` when the worker runs them, `pending` when an external scanner will call back. */
export function initialToolStatus(tool: string): 'queued' | 'pending' {
  return isBuiltinTool(tool) ? 'queued' : 'pending';
}

/** plan_reason is stored in 500 characters. */
export function planReasonText(reason: string | readonly string[]): string {
  const text = typeof reason === 'string' ? reason : reason.join('; ');
  return text.length > 500 ? `${text.slice(0, 499)}…` : text;
}
