// Unit tests: pure logic next to the code, no database, no broker.
module.exports = {
  ...require('./preset'),
  displayName: 'unit',
  testMatch: ['<rootDir>/{apps,libs}/**/src/**/*.spec.ts'],
};
