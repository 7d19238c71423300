// Jest loads globalSetup without moduleNameMapper: teach require() the @platform/* aliases, then hand
// over to the harness (TypeScript, transformed by Jest while it is loaded).
require('../register-paths');
module.exports = require('../../libs/testing/src/global-setup').default;
