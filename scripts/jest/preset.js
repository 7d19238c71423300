// Shared Jest settings: TypeScript through ts-jest in transpile-only mode (the type-check is its own
// step, `npm run typecheck`), and the `@platform/*` path aliases of tsconfig.base.json.
const path = require('path');
const { compilerOptions } = require('../../tsconfig.base.json');

// Nest 12 and jose 6 ship only ES modules. Jest (30.4+, Node 24.9+) loads them from the CommonJS tests
// the way Node's own require(esm) does, with vm.SourceTextModule, which exists only under Node's
// --experimental-vm-modules (decision 0040). Without it every suite fails on its first import with a
// message that points elsewhere; say what to run instead.
if (typeof require('node:vm').SourceTextModule !== 'function') {
  throw new Error(
    "Jest needs Node's --experimental-vm-modules to load Nest 12 and jose (ES modules): run " +
      '`npm run test:unit -- <paths>` / `npm run test:int -- <paths>`, or ' +
      'NODE_OPTIONS=--experimental-vm-modules npx jest -c scripts/jest/<unit|int>.config.js <paths>',
  );
}

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
