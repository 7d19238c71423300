// Shared Jest settings: TypeScript through ts-jest in transpile-only mode (the type-check is its own
// step, `npm run typecheck`), and the `@platform/*` path aliases of tsconfig.base.json.
const { compilerOptions } = require('./tsconfig.base.json');

const moduleNameMapper = Object.fromEntries(
  Object.entries(compilerOptions.paths).map(([alias, [target]]) => [`^${alias}$`, `<rootDir>/${target}`]),
);

module.exports = {
  rootDir: __dirname,
  testEnvironment: 'node',
  moduleFileExtensions: ['ts', 'js', 'json'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.json', diagnostics: false }],
  },
  moduleNameMapper,
  testPathIgnorePatterns: ['/node_modules/', '/dist/', '/tmp/'],
  modulePathIgnorePatterns: ['<rootDir>/dist/', '<rootDir>/tmp/'],
};
