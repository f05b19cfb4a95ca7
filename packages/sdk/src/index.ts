export * from './client';
export * from './api-error';
export * from './device-flow';
export * from './findings-query';
export * from './pagination';
