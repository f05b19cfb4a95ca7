export * from './local-postgres';
export * from './template-db';
export * from './test-database';
export * from './test-redis';
export * from './factories';
export * from './recording-server';
export * from './test-planes';
export * from './stack';
