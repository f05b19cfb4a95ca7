import { Queue, type ConnectionOptions } from 'bullmq';
import { bullPrefix } from '@palisade/queue';

export const OUTBOX_SWEEP_EVERY_MS = 30_000;

/**
 * Registers the repeatable outbox sweep (idempotent: one scheduler per id) and runs one sweep
 * right away, so rows left undispatched while Redis or the worker was down go out at boot.
 */
export async function scheduleOutboxSweep(options: { connection: ConnectionOptions; prefix: string; everyMs?: number }): Promise<() => Promise<void>> {
  const queue = new Queue('outbox-sweep', { connection: options.connection, prefix: bullPrefix(options.prefix) });
  await queue.upsertJobScheduler('outbox-sweep', { every: options.everyMs ?? OUTBOX_SWEEP_EVERY_MS }, { name: 'outbox-sweep', data: {} });
  await queue.add('outbox-sweep', {}, { jobId: `outbox-sweep-boot-${Date.now()}`, removeOnComplete: true, removeOnFail: 100 });
  return () => queue.close();
}
