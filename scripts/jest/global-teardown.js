require('../register-paths');
module.exports = require('../../libs/testing/src/global-teardown').default;
