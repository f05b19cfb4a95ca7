export * from './scan-state';
export * from './scan-tools';
export * from './scan-plan';
export * from './scan-jobs';
export * from './scan-view';
export * from './callback-token';
export * from './automatic-plan';
export * from './repository-source';
