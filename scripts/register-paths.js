// Resolves `@platform/<lib>` to `<root>/libs/<lib>/src/index` at run time, the way tsconfig paths do at
// compile time, and a lib's second entry point `@platform/<lib>/<entry>` to `libs/<lib>/src/<entry>`
// (e.g. @platform/observability/tracing). Root is the repo for TypeScript sources (ts-node, Jest
// globalSetup) and `dist/` for the build (this file is copied to dist/scripts/).
// Usage: node -r ./dist/scripts/register-paths.js app.js
'use strict';
const Module = require('module');
const path = require('path');

const root = process.env.PLATFORM_ROOT || path.resolve(__dirname, '..');
const original = Module._resolveFilename;
const ALIAS = /^@platform\/([a-z][a-z0-9-]*)(?:\/([a-z][a-z0-9-]*))?$/;

Module._resolveFilename = function resolvePlatformAlias(request, ...rest) {
  const m = ALIAS.exec(request);
  return original.call(this, m ? path.join(root, 'libs', m[1], 'src', m[2] ?? 'index') : request, ...rest);
};
