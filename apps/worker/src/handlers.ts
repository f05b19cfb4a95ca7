import type { TJobGiveUps, TJobHandlers } from '@palisade/queue';
import { makeOutboxDispatchJob, makeOutboxSweepJob } from './jobs/outbox-dispatch.job';
import { makeScanDeadlineJob } from './jobs/scan-deadline.job';
import { makeScanFanoutJob } from './jobs/scan-fanout.job';
import type { TOutboxJobDeps, TScanToolJobDeps } from './jobs/scan-job-deps';
import { makeScanPlanJob } from './jobs/scan-plan.job';
import { makeScanToolGiveUp, makeScanToolJob } from './jobs/scan-tool.job';

export type TWorkerDeps = TScanToolJobDeps & TOutboxJobDeps;

/**
 * The consumers of this process, by queue. Queues without a consumer here (the dead-letter
 * queue) are parking places: their jobs stay recorded until the admin plane replays them.
 */
export function makeJobHandlers(deps: TWorkerDeps): TJobHandlers {
  return {
    // scan lifecycle (issue 4)
    'scan-fanout': makeScanFanoutJob(deps),
    'scan-plan': makeScanPlanJob(deps),
    'scan-tool': makeScanToolJob(deps),
    'scan-deadline': makeScanDeadlineJob(deps),
    'outbox-dispatch': makeOutboxDispatchJob(deps),
    'outbox-sweep': makeOutboxSweepJob(deps),
  };
}

/** What each queue leaves settled when one of its jobs will not run again (see TJobGiveUp). */
export function makeJobGiveUps(deps: TWorkerDeps): TJobGiveUps {
  return {
    // A tool whose job died with its workers ends failed now, not `running` until the scan deadline.
    'scan-tool': makeScanToolGiveUp(deps),
  };
}
