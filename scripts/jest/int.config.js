// Integration and e2e tests: one embedded PostgreSQL and one Kafka-protocol broker per run (globalSetup),
// a fresh database per test file. Tests that inject broker faults start their own cluster.
module.exports = {
  ...require('./preset'),
  displayName: 'integration',
  testMatch: [
    '<rootDir>/apps/*/test/**/*.int-spec.ts',
    '<rootDir>/apps/*/test/**/*.e2e-spec.ts',
    '<rootDir>/libs/*/test/**/*.int-spec.ts',
  ],
  globalSetup: '<rootDir>/scripts/jest/global-setup.js',
  globalTeardown: '<rootDir>/scripts/jest/global-teardown.js',
  testTimeout: 60000,
  maxWorkers: 2,
};
