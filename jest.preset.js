// Shared Jest settings for every workspace: TypeScript through swc (no type-check at test time;
// `npm run lint` does that), workspace packages resolved to their sources, and the slow
// integration files given room.
const path = require('node:path');

module.exports = {
  testEnvironment: 'node',
  testEnvironmentOptions: { customExportConditions: ['palisade-source', 'node', 'require', 'default'] },
  transform: {
    '^.+\\.(t|j|mj)sx?$': [require.resolve('@swc/jest'), {
      jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
      module: { type: 'commonjs' },
    }],
  },
  // ESM-only dependencies are compiled to CommonJS like our own sources.
  transformIgnorePatterns: ['/node_modules/(?!(jose|oauth4webapi|openid-client|@apidevtools|@jsdevtools)/)'],
  testMatch: ['<rootDir>/src/**/*.test.ts', '<rootDir>/test/**/*.test.ts'],
  testTimeout: 30000,
  // A socket a library keeps half-open (BullMQ, ioredis reconnect timers) must never hang CI;
  // each suite closes what it opened, and this is only the backstop.
  forceExit: true,
  rootDir: process.cwd(),
  globalSetup: path.join(__dirname, 'packages/testing/src/jest-global-setup.js'),
};
