// Shared Jest settings: TypeScript through ts-jest in transpile-only mode (the type-check is its own
// step, `npm run typecheck`), and the `@platform/*` path aliases of tsconfig.base.json.
const path = require('path');
const { compilerOptions } = require('../../tsconfig.base.json');

const rootDir = path.resolve(__dirname, '../..');
const moduleNameMapper = Object.fromEntries(
  Object.entries(compilerOptions.paths).map(([alias, [target]]) => [`^${alias}$`, `<rootDir>/${target}`]),
);

module.exports = {
  rootDir,
  testEnvironment: 'node',
  moduleFileExtensions: ['ts', 'js', 'json'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/scripts/tsconfig.typecheck.json', diagnostics: false }],
  },
  moduleNameMapper,
  // Anchored to the repo: a clone under /tmp must not ignore itself.
  testPathIgnorePatterns: ['<rootDir>/node_modules/', '<rootDir>/dist/', '<rootDir>/tmp/'],
  modulePathIgnorePatterns: ['<rootDir>/dist/', '<rootDir>/tmp/'],
};
