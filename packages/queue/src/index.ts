export * from './queue-registry';
export * from './producer';
export * from './worker-factory';
