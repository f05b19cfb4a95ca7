import { CALLBACK_REPORT_LIMIT_BYTES } from '@palisade/contracts';
import { makeIngestRepo } from '@palisade/db';
import { makeQueueProducer } from '@palisade/queue';
import type { TBaseEnv, TBuildPlane } from '@palisade/platform';
import { postToolOutcomeRoute } from './routes/callbacks/post-tool-outcome.route';
import { postToolReportRoute } from './routes/callbacks/post-tool-report.route';
import { makeIngestService } from './services/ingest.service';

/** The callback plane: scanner reports and tool outcomes (issue 4); provider webhooks arrive later. */
export const buildCallbackApi: TBuildPlane<TBaseEnv> = async ({ env, db, redis, logger }) => {
  const queue = makeQueueProducer({ connection: redis, prefix: env.REDIS_PREFIX });
  const ingest = makeIngestService({
    ingest: makeIngestRepo(db.pool),
    limitBytes: CALLBACK_REPORT_LIMIT_BYTES,
    // Outbox rows are durable already; a failed enqueue only delays them until the sweeper runs.
    afterCommit: async (outboxIds) => {
      await Promise.all(
        outboxIds.map((id) =>
          queue.enqueue('outbox-dispatch', { outbox_id: id }, { jobId: id }).catch((err) => logger.warn({ err, outboxId: id }, 'outbox dispatch not enqueued')),
        ),
      );
    },
  });
  return {
    closeHooks: [() => queue.close()],
    routes: [postToolReportRoute({ ingest }), postToolOutcomeRoute({ ingest })],
  };
};
