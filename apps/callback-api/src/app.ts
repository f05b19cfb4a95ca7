import { CALLBACK_REPORT_LIMIT_BYTES } from '@palisade/contracts';
import { makeIngestRepo } from '@palisade/db';
import { dispatchOutbox, makeQueueProducer } from '@palisade/queue';
import type { TBaseEnv, TBuildPlane } from '@palisade/platform';
import { postToolOutcomeRoute } from './routes/callbacks/post-tool-outcome.route';
import { postToolReportRoute } from './routes/callbacks/post-tool-report.route';
import { makeIngestService } from './services/ingest.service';
import { ReportEncoderPool } from './services/report-encoder-pool';

/** The callback plane: scanner reports and tool outcomes (issue 4); provider webhooks arrive later. */
export const buildCallbackApi: TBuildPlane<TBaseEnv> = async ({ env, db, redis, logger }) => {
  const queue = makeQueueProducer({ connection: redis, prefix: env.REDIS_PREFIX });
  const encoders = new ReportEncoderPool();
  encoders.warm();
  const ingest = makeIngestService({
    ingest: makeIngestRepo(db.pool),
    limitBytes: CALLBACK_REPORT_LIMIT_BYTES,
    encoders,
    afterCommit: (outboxIds) => dispatchOutbox(queue, outboxIds, logger),
  });
  return {
    closeHooks: [() => queue.close(), () => encoders.close()],
    routes: [postToolReportRoute({ ingest }), postToolOutcomeRoute({ ingest })],
  };
};
